package dev.cellar.hfile;

import dev.cellar.hfile.bloom.BloomConfig;
import dev.cellar.schema.BloomType;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;

/**
 * How an HFile is written: the column family's block settings (HBase's BLOCKSIZE,
 * DATA_BLOCK_ENCODING, COMPRESSION, BLOOMFILTER) and the file-level switches. Immutable; build one
 * with {@link #builder()}.
 *
 * @param blockSize data block size hint in bytes: a block closes once it reaches it (65536)
 * @param encoding data block encoding (NONE)
 * @param compression block compression (NONE)
 * @param bloomType general bloom filter type (NONE here; column families default to ROW)
 * @param bloomConfig bloom sizing and hashing
 * @param checksumType block checksum algorithm (CRC32C)
 * @param bytesPerChecksum bytes covered by one checksum (16384)
 * @param includesTags whether every cell carries a tags length
 * @param includesMvcc whether every cell carries its sequence id (true)
 * @param compressTags whether PREFIX/DIFF/FAST_DIFF blocks dictionary-compress tags (true)
 * @param indexBlockMaxSize index chunk size (131072)
 * @param indexMinEntries minimum entries per intermediate index block (16)
 * @param createTime the creation time recorded in the file, in milliseconds
 */
public record HFileContext(
    int blockSize,
    DataBlockEncoding encoding,
    Compression compression,
    BloomType bloomType,
    BloomConfig bloomConfig,
    ChecksumType checksumType,
    int bytesPerChecksum,
    boolean includesTags,
    boolean includesMvcc,
    boolean compressTags,
    int indexBlockMaxSize,
    int indexMinEntries,
    long createTime) {

  public static final int DEFAULT_BLOCK_SIZE = 64 * 1024;
  public static final int DEFAULT_BYTES_PER_CHECKSUM = 16 * 1024;
  public static final int DEFAULT_INDEX_BLOCK_MAX_SIZE = 128 * 1024;
  public static final int DEFAULT_INDEX_MIN_ENTRIES = 16;

  public HFileContext {
    if (blockSize <= 0) {
      throw new IllegalArgumentException("BLOCKSIZE must be > 0, was " + blockSize);
    }
    if (!compression.isSupported()) {
      throw new IllegalArgumentException("COMPRESSION " + compression + " is not supported");
    }
    if (bytesPerChecksum < BlockHeader.SIZE) {
      throw new IllegalArgumentException(
          "bytes per checksum must be >= " + BlockHeader.SIZE + ", was " + bytesPerChecksum);
    }
    if (indexBlockMaxSize <= 0 || indexMinEntries < 2) {
      throw new IllegalArgumentException(
          "index chunk size must be > 0 and min entries >= 2, were "
              + indexBlockMaxSize
              + " and "
              + indexMinEntries);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this context's values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Builds an {@link HFileContext}; unset values take the defaults listed on the record. */
  public static final class Builder {
    private int blockSize = DEFAULT_BLOCK_SIZE;
    private DataBlockEncoding encoding = DataBlockEncoding.NONE;
    private Compression compression = Compression.NONE;
    private BloomType bloomType = BloomType.NONE;
    private BloomConfig bloomConfig = BloomConfig.defaults();
    private ChecksumType checksumType = ChecksumType.CRC32C;
    private int bytesPerChecksum = DEFAULT_BYTES_PER_CHECKSUM;
    private boolean includesTags;
    private boolean includesMvcc = true;
    private boolean compressTags = true;
    private int indexBlockMaxSize = DEFAULT_INDEX_BLOCK_MAX_SIZE;
    private int indexMinEntries = DEFAULT_INDEX_MIN_ENTRIES;
    private long createTime = System.currentTimeMillis();

    private Builder() {}

    private Builder(HFileContext from) {
      blockSize = from.blockSize;
      encoding = from.encoding;
      compression = from.compression;
      bloomType = from.bloomType;
      bloomConfig = from.bloomConfig;
      checksumType = from.checksumType;
      bytesPerChecksum = from.bytesPerChecksum;
      includesTags = from.includesTags;
      includesMvcc = from.includesMvcc;
      compressTags = from.compressTags;
      indexBlockMaxSize = from.indexBlockMaxSize;
      indexMinEntries = from.indexMinEntries;
      createTime = from.createTime;
    }

    public Builder blockSize(int value) {
      blockSize = value;
      return this;
    }

    public Builder encoding(DataBlockEncoding value) {
      encoding = value;
      return this;
    }

    public Builder compression(Compression value) {
      compression = value;
      return this;
    }

    public Builder bloomType(BloomType value) {
      bloomType = value;
      return this;
    }

    public Builder bloomConfig(BloomConfig value) {
      bloomConfig = value;
      return this;
    }

    public Builder checksumType(ChecksumType value) {
      checksumType = value;
      return this;
    }

    public Builder bytesPerChecksum(int value) {
      bytesPerChecksum = value;
      return this;
    }

    public Builder includesTags(boolean value) {
      includesTags = value;
      return this;
    }

    public Builder includesMvcc(boolean value) {
      includesMvcc = value;
      return this;
    }

    public Builder compressTags(boolean value) {
      compressTags = value;
      return this;
    }

    public Builder indexBlockMaxSize(int value) {
      indexBlockMaxSize = value;
      return this;
    }

    public Builder indexMinEntries(int value) {
      indexMinEntries = value;
      return this;
    }

    public Builder createTime(long value) {
      createTime = value;
      return this;
    }

    public HFileContext build() {
      return new HFileContext(
          blockSize,
          encoding,
          compression,
          bloomType,
          bloomConfig,
          checksumType,
          bytesPerChecksum,
          includesTags,
          includesMvcc,
          compressTags,
          indexBlockMaxSize,
          indexMinEntries,
          createTime);
    }
  }
}
