package dev.cellar.interop;

import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.Trailer;
import dev.cellar.schema.Compression;
import java.io.Closeable;
import java.io.DataInput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.fs.HFileSystem;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlockIndex;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.BloomFilter;
import org.apache.hadoop.hbase.util.BloomFilterFactory;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * Apache HBase's side of the interop tests: writes HFiles with HBase's own writers and reads them
 * with HBase's own reader, so Cellar's files can be checked by HBase and HBase's files by Cellar.
 *
 * <p>Files live on the local file system, reached the way a region server reaches its store files:
 * through an {@link HFileSystem} with HBase checksums on ({@code
 * hbase.regionserver.checksum.verify} true), so every block HBase reads has its checksums verified
 * by HBase itself. On a local file system HBase does not fail a read whose checksums mismatch: it
 * logs a warning, counts the failure and reads the block again through the file system's own
 * checksums, which a local file without {@code .crc} side files does not have, so the corrupt bytes
 * come back. Every method here that reads blocks therefore turns a counted checksum failure into an
 * {@link IOException}.
 *
 * <p>The codecs are those the {@code hbase-site.xml} on the test class path names: HBase's {@code
 * hbase-compression-snappy}, {@code -lz4} and {@code -zstd} ({@code xerial.SnappyCodec}, {@code
 * lz4.Lz4Codec}, {@code zstd.ZstdCodec}); GZ is HBase's default {@code ReusableStreamGzipCodec}
 * over Hadoop's pure-Java gzip. HBase picks its codec classes once per JVM, when its compression
 * enum initializes.
 *
 * <p>Not thread-safe, even across instances: HBase counts checksum failures in one process-wide
 * counter, which each reading method resets and checks.
 */
public final class HBaseHFiles {

  /**
   * The comparator HBase 2.6 uses for the cells of a store file, and so the comparator name {@link
   * #trailer} reports for one: HBase resolves the legacy name stored in the trailer ({@code
   * KeyValue$KVComparator}) to this class when it reads the trailer.
   */
  public static final String STORE_COMPARATOR = "org.apache.hadoop.hbase.InnerStoreCellComparator";

  private final Configuration conf;
  private final HFileSystem fs;

  /**
   * Opens the local file system the way a region server opens its data file system with {@code
   * hbase.regionserver.checksum.verify} at its default, true.
   */
  public HBaseHFiles() throws IOException {
    conf = HBaseConfiguration.create();
    fs = new HFileSystem(conf, true);
  }

  /**
   * Writes {@code cells} to a new HFile. Without a bloom filter this is HBase's bare HFile writer
   * ({@code HFile.getWriterFactory}); with one it is HBase's {@code StoreFileWriter}, which adds
   * the bloom blocks and the store-level file info a flush writes (max sequence id, time range,
   * bloom type). The checksum type and chunk size go into the file context as a store puts them
   * there from {@code hbase.hstore.checksum.algorithm} and {@code hbase.hstore.bytes.per.checksum}.
   *
   * @param cells the cells in HBase's order, as {@code CellComparatorImpl} sorts them
   */
  public void write(Path file, List<CellSpec> cells, Spec spec) throws IOException {
    Configuration writeConf = new Configuration(conf);
    writeConf.setInt(HFileBlockIndex.MAX_CHUNK_SIZE_KEY, spec.indexBlockSize());
    writeConf.setInt("RowPrefixBloomFilter.prefix_length", Spec.ROW_PREFIX_LENGTH);
    HFileContext context =
        new HFileContextBuilder()
            .withBlockSize(spec.blockSize())
            .withDataBlockEncoding(DataBlockEncoding.valueOf(spec.encoding().name()))
            .withCompression(hbaseCompression(spec.compression()))
            .withIncludesTags(spec.includesTags())
            .withIncludesMvcc(spec.includesMvcc())
            .withChecksumType(ChecksumType.valueOf(spec.checksumType().name()))
            .withBytesPerCheckSum(spec.bytesPerChecksum())
            .build();
    org.apache.hadoop.fs.Path path = hadoopPath(file);
    if (spec.bloom() == Spec.Bloom.NONE) {
      try (HFile.Writer writer =
          HFile.getWriterFactory(writeConf, CacheConfig.DISABLED)
              .withPath(fs, path)
              .withFileContext(context)
              .create()) {
        for (CellSpec cell : cells) {
          writer.append(cell.toHBase());
        }
      }
      return;
    }
    StoreFileWriter writer =
        new StoreFileWriter.Builder(writeConf, CacheConfig.DISABLED, fs)
            .withFilePath(path)
            .withBloomType(BloomType.valueOf(spec.bloom().name()))
            .withMaxKeyCount(cells.size())
            .withFileContext(context)
            .build();
    try {
      long maxSequenceId = 0;
      for (CellSpec cell : cells) {
        writer.append(cell.toHBase());
        maxSequenceId = Math.max(maxSequenceId, cell.sequenceId());
      }
      writer.appendMetadata(maxSequenceId, false);
    } finally {
      writer.close();
    }
  }

  /**
   * Returns every cell HBase's scanner sees in the file, in file order, with the sequence ids the
   * file carries (0 when it has no mvcc).
   *
   * @throws IOException also if HBase found a block whose checksums do not match
   */
  public List<CellSpec> read(Path file) throws IOException {
    HFile.getAndResetChecksumFailuresCount();
    List<CellSpec> cells = new ArrayList<>();
    try (HFile.Reader reader = open(file);
        HFileScanner scanner = reader.getScanner(conf, false, true)) {
      if (scanner.seekTo()) {
        do {
          cells.add(CellSpec.fromHBase(scanner.getCell()));
        } while (scanner.next());
      }
    }
    checkChecksums(file, "while scanning");
    return cells;
  }

  /**
   * Reads every block of the file with HBase's block reader, checksums verified: opening the file
   * reads the load-on-open section (root indexes, file info, bloom meta), then every block before
   * it (data, leaf and intermediate index, bloom chunks, meta) is read in file order.
   *
   * @return the blocks before the load-on-open section, in file order
   * @throws IOException also if a block's checksums do not match, naming its offset
   */
  public List<BlockInfo> readBlocks(Path file) throws IOException {
    HFile.getAndResetChecksumFailuresCount();
    List<BlockInfo> blocks = new ArrayList<>();
    try (HFile.Reader reader = open(file)) {
      checkChecksums(file, "in the load-on-open section");
      long end = reader.getTrailer().getLoadOnOpenDataOffset();
      long offset = 0;
      while (offset < end) {
        HFileBlock block = reader.readBlock(offset, -1, false, true, false, false, null, null);
        try {
          checkChecksums(file, "in the block at offset " + offset);
          blocks.add(
              new BlockInfo(
                  offset,
                  BlockType.valueOf(block.getBlockType().name()),
                  block.getOnDiskSizeWithHeader(),
                  block.getUncompressedSizeWithoutHeader()));
          offset += block.getOnDiskSizeWithHeader();
        } finally {
          block.release();
        }
      }
    }
    return blocks;
  }

  /**
   * Returns the trailer as HBase reads it, in Cellar's terms. Every field is as stored except the
   * comparator name, which is the class HBase resolved the stored name to (see {@link
   * #STORE_COMPARATOR}).
   */
  public Trailer trailer(Path file) throws IOException {
    try (HFile.Reader reader = open(file)) {
      FixedFileTrailer t = reader.getTrailer();
      return new Trailer(
          t.getFileInfoOffset(),
          t.getLoadOnOpenDataOffset(),
          t.getUncompressedDataIndexSize(),
          t.getTotalUncompressedBytes(),
          t.getDataIndexCount(),
          t.getMetaIndexCount(),
          t.getEntryCount(),
          t.getNumDataIndexLevels(),
          t.getFirstDataBlockOffset(),
          t.getLastDataBlockOffset(),
          t.getComparatorClassName(),
          Compression.fromCode(t.getCompressionCodec().ordinal()),
          t.getMinorVersion());
    }
  }

  /**
   * Loads the file's general bloom filter the way a store file reader does: HBase reads the bloom
   * meta block from the load-on-open section and its chunks on demand, checksums verified.
   *
   * @return the loaded filter, which keeps the file open until it is closed
   * @throws IllegalStateException if the file has no general bloom filter
   */
  public BloomProbe openBloom(Path file) throws IOException {
    HFile.getAndResetChecksumFailuresCount();
    HFile.Reader reader = open(file);
    try {
      DataInput meta = reader.getGeneralBloomFilterMetadata();
      byte[] typeName = reader.getHFileInfo().get(HStoreFile.BLOOM_FILTER_TYPE_KEY);
      if (meta == null || typeName == null) {
        throw new IllegalStateException(file + " has no general bloom filter");
      }
      BloomType type = BloomType.valueOf(Bytes.toString(typeName));
      return new BloomProbe(file, reader, BloomFilterFactory.createFromMeta(meta, reader), type);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /** A file's general bloom filter as HBase loaded it. Not thread-safe. */
  public static final class BloomProbe implements Closeable {

    private final Path file;
    private final HFile.Reader reader;
    private final BloomFilter filter;
    private final BloomType type;

    private BloomProbe(Path file, HFile.Reader reader, BloomFilter filter, BloomType type) {
      this.file = file;
      this.reader = reader;
      this.filter = filter;
      this.type = type;
    }

    /**
     * Whether the file may hold a cell of the row (ROW bloom) or of the row and qualifier (ROWCOL
     * bloom); false means it certainly does not.
     *
     * @param qualifier the qualifier, used only by a ROWCOL bloom
     */
    public boolean mightContain(byte[] row, byte[] qualifier) throws IOException {
      boolean result =
          switch (type) {
            case ROW -> filter.contains(row, 0, row.length, null);
            case ROWCOL ->
                filter.contains(
                    KeyValueUtil.createFirstOnRow(row, HConstants.EMPTY_BYTE_ARRAY, qualifier),
                    null,
                    BloomType.ROWCOL);
            case ROWPREFIX_FIXED_LENGTH -> {
              int length = Math.min(Spec.ROW_PREFIX_LENGTH, row.length);
              yield filter.contains(row, 0, length, null);
            }
            default -> throw new IllegalStateException(file + " has a " + type + " bloom filter");
          };
      checkChecksums(file, "in a bloom chunk");
      return result;
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  private HFile.Reader open(Path file) throws IOException {
    return HFile.createReader(fs, hadoopPath(file), CacheConfig.DISABLED, true, conf);
  }

  private static void checkChecksums(Path file, String where) throws IOException {
    long failures = HFile.getAndResetChecksumFailuresCount();
    if (failures != 0) {
      throw new IOException(
          "HBase found " + failures + " block checksum failure(s) " + where + " of " + file);
    }
  }

  private static org.apache.hadoop.hbase.io.compress.Compression.Algorithm hbaseCompression(
      Compression compression) {
    return org.apache.hadoop.hbase.io.compress.Compression.Algorithm.valueOf(compression.name());
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path file) {
    return new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri());
  }
}
