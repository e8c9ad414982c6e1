package dev.cellar.interop;

import dev.cellar.hfile.ChecksumType;
import dev.cellar.schema.Compression;

/**
 * How an HFile is written: the per-file switches of HBase's {@code HFileContext} and the column
 * family's bloom type. Enum constant names are HBase's, so each maps to HBase's own enum by name.
 *
 * @param blockSize the data block size (HBase's {@code BLOCKSIZE})
 * @param indexBlockSize the largest index chunk before the index grows a level ({@code
 *     hfile.index.block.max.size})
 * @param encoding the data block encoding
 * @param compression the block compression: NONE, GZ, SNAPPY, LZ4 or ZSTD
 * @param includesTags whether cells carry their tags
 * @param includesMvcc whether cells carry their sequence id
 * @param bloom the general bloom filter
 * @param checksumType the block checksum algorithm ({@code hbase.hstore.checksum.algorithm})
 * @param bytesPerChecksum the bytes one checksum covers ({@code hbase.hstore.bytes.per.checksum})
 */
public record Spec(
    int blockSize,
    int indexBlockSize,
    Encoding encoding,
    Compression compression,
    boolean includesTags,
    boolean includesMvcc,
    Bloom bloom,
    ChecksumType checksumType,
    int bytesPerChecksum) {

  /** HBase's default data block size. */
  public static final int DEFAULT_BLOCK_SIZE = 64 * 1024;

  /** HBase's default index chunk size. */
  public static final int DEFAULT_INDEX_BLOCK_SIZE = 128 * 1024;

  /** HBase's default bytes per checksum. */
  public static final int DEFAULT_BYTES_PER_CHECKSUM = 16 * 1024;

  /** Data block encodings, named as in HBase's {@code DataBlockEncoding}. */
  public enum Encoding {
    NONE,
    PREFIX,
    DIFF,
    FAST_DIFF,
    ROW_INDEX_V1
  }

  /**
   * General bloom filter types, named as in HBase's {@code BloomType}; ROWPREFIX_FIXED_LENGTH uses
   * a prefix of {@link #ROW_PREFIX_LENGTH} bytes.
   */
  public enum Bloom {
    NONE,
    ROW,
    ROWCOL,
    ROWPREFIX_FIXED_LENGTH
  }

  /**
   * The prefix length of ROWPREFIX_FIXED_LENGTH blooms ({@code
   * RowPrefixBloomFilter.prefix_length}).
   */
  public static final int ROW_PREFIX_LENGTH = 7;

  /**
   * HBase's defaults, with tags and mvcc on: no encoding, no compression, no bloom, CRC32C
   * checksums per 16 KiB.
   */
  public static Spec defaults() {
    return new Spec(
        DEFAULT_BLOCK_SIZE,
        DEFAULT_INDEX_BLOCK_SIZE,
        Encoding.NONE,
        Compression.NONE,
        true,
        true,
        Bloom.NONE,
        ChecksumType.CRC32C,
        DEFAULT_BYTES_PER_CHECKSUM);
  }

  public Spec withBlockSizes(int newBlockSize, int newIndexBlockSize) {
    return new Spec(
        newBlockSize,
        newIndexBlockSize,
        encoding,
        compression,
        includesTags,
        includesMvcc,
        bloom,
        checksumType,
        bytesPerChecksum);
  }

  public Spec withEncoding(Encoding newEncoding) {
    return new Spec(
        blockSize,
        indexBlockSize,
        newEncoding,
        compression,
        includesTags,
        includesMvcc,
        bloom,
        checksumType,
        bytesPerChecksum);
  }

  public Spec withCompression(Compression newCompression) {
    return new Spec(
        blockSize,
        indexBlockSize,
        encoding,
        newCompression,
        includesTags,
        includesMvcc,
        bloom,
        checksumType,
        bytesPerChecksum);
  }

  public Spec withTagsAndMvcc(boolean newIncludesTags, boolean newIncludesMvcc) {
    return new Spec(
        blockSize,
        indexBlockSize,
        encoding,
        compression,
        newIncludesTags,
        newIncludesMvcc,
        bloom,
        checksumType,
        bytesPerChecksum);
  }

  public Spec withBloom(Bloom newBloom) {
    return new Spec(
        blockSize,
        indexBlockSize,
        encoding,
        compression,
        includesTags,
        includesMvcc,
        newBloom,
        checksumType,
        bytesPerChecksum);
  }

  public Spec withChecksums(ChecksumType newChecksumType, int newBytesPerChecksum) {
    return new Spec(
        blockSize,
        indexBlockSize,
        encoding,
        compression,
        includesTags,
        includesMvcc,
        bloom,
        newChecksumType,
        newBytesPerChecksum);
  }
}
