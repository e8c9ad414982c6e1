package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * RocksDB's side, through its JNI binding, set up to match Cellar's: one LRU block cache of the
 * size asked for, 64 KiB blocks, a 10-bit bloom filter, no compression, index and filter blocks
 * kept in the block cache with high priority in half of it (as Cellar's cache keeps its leaf index
 * and bloom blocks out of the data blocks' churn: in its multi-access group, or in the L1 in front
 * of an L2) and shards large enough to hold a filter block ({@link #shardBits}), a 128 MiB write
 * buffer (HBase's flush size). A row is one key: its value is the row's one value, or, for several
 * columns, the row's fields in YCSB's RocksDB layout ({@link YcsbRecord}). The load skips the WAL;
 * the write scenario keeps it and syncs every batch. Reads use the {@code get} that copies the
 * value into a reused array, so the read path allocates nothing on the heap.
 */
final class RocksDbSide implements ComparedStore {

  private static final int BLOCK_SIZE = 64 * 1024;
  private static final int BLOOM_BITS_PER_KEY = 10;
  private static final long WRITE_BUFFER = 128L << 20;
  private static final long LONG_SCAN_READAHEAD = 2L << 20;

  /**
   * The cache share kept for index and filter blocks (cached with high priority, RocksDB's
   * default): RocksDB's own default, which the Java binding's one-argument cache leaves at 0, so
   * that data blocks churning through a cache smaller than the data evicted the index and filter
   * blocks.
   */
  private static final double HIGH_PRIORITY_POOL_RATIO = 0.5;

  /** The least memory per cache shard: a file's filter block (1.2 MiB per million keys) fits. */
  private static final long MIN_SHARD_BYTES = 8L << 20;

  /** RocksDB's own ceiling on the shards it picks by itself. */
  private static final int MAX_SHARD_BITS = 6;

  static {
    RocksDB.loadLibrary();
  }

  private final Path directory;
  private final LRUCache cache;
  private final BloomFilter bloom;
  private final Statistics statistics;
  private final Options options;
  private final RocksDB db;
  private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
  private final WriteOptions syncedWrites = new WriteOptions().setSync(true);
  private final ReadOptions readOptions = new ReadOptions();
  private long lastHits;
  private long lastMisses;

  private RocksDbSide(Path directory, long cacheBytes) throws IOException {
    this.directory = directory;
    this.cache = new LRUCache(cacheBytes, shardBits(cacheBytes), false, HIGH_PRIORITY_POOL_RATIO);
    this.bloom = new BloomFilter(BLOOM_BITS_PER_KEY);
    this.statistics = new Statistics();
    statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
    BlockBasedTableConfig tableConfig =
        new BlockBasedTableConfig()
            .setBlockCache(cache)
            .setBlockSize(BLOCK_SIZE)
            .setFilterPolicy(bloom)
            .setCacheIndexAndFilterBlocks(true);
    this.options =
        new Options()
            .setCreateIfMissing(true)
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
            .setWriteBufferSize(WRITE_BUFFER)
            .setStatistics(statistics)
            .setTableFormatConfig(tableConfig);
    try {
      Files.createDirectories(directory);
      this.db = RocksDB.open(options, directory.toString());
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException("RocksDB cannot open " + directory + ": " + e.getMessage(), e);
    }
  }

  /**
   * Shards of at least {@link #MIN_SHARD_BYTES}. RocksDB picks shards of 512 KiB and up by itself,
   * and a block larger than its shard is never kept: with a small cache every Get read a million
   * keys' filter block again (p50 115 us for small rows with a third of them cached).
   */
  static int shardBits(long cacheBytes) {
    int bits = 0;
    while (bits < MAX_SHARD_BITS && cacheBytes >> (bits + 1) >= MIN_SHARD_BYTES) {
      bits++;
    }
    return bits;
  }

  static ComparedStore open(Path directory, long cacheBytes) throws IOException {
    return new RocksDbSide(directory, cacheBytes);
  }

  @Override
  public String name() {
    return "RocksDB";
  }

  @Override
  public void put(byte[] key, byte[][] values) throws IOException {
    try {
      db.put(writeOptions, key, YcsbRecord.encode(values));
    } catch (RocksDBException e) {
      throw new IOException("RocksDB put failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void flushAndCompact() throws IOException {
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush);
      db.compactRange();
    } catch (RocksDBException e) {
      throw new IOException("RocksDB flush or compaction failed: " + e.getMessage(), e);
    }
  }

  @Override
  public byte[][] get(RowShape shape, byte[] key) throws IOException {
    try {
      byte[] record = db.get(readOptions, key);
      return record == null ? null : YcsbRecord.decode(record, shape);
    } catch (RocksDBException e) {
      throw new IOException("RocksDB get failed: " + e.getMessage(), e);
    }
  }

  @Override
  public Worker.Factory readers(RowShape shape, long rows, long seed) {
    int recordLength = YcsbRecord.length(shape);
    return thread ->
        new Worker() {
          private final RandomRows random = new RandomRows(shape, rows, seed, thread);
          private final byte[] value = new byte[recordLength];

          @Override
          public long execute(long iteration) throws IOException {
            try {
              return db.get(readOptions, random.nextKey(), value) == recordLength ? 1 : 0;
            } catch (RocksDBException e) {
              throw new IOException("RocksDB get failed: " + e.getMessage(), e);
            }
          }

          @Override
          public void close() {}
        };
  }

  /**
   * Each thread keeps one iterator (a RocksDB iterator is made to be sought again) over read
   * options with {@code fill_cache} as asked and, for scans of whole shares, a 2 MiB readahead (the
   * size RocksDB's tuning guide gives for long scans; it applies only to blocks the cache misses,
   * and short scans keep RocksDB's adaptive readahead). A scan seeks to its start row and reads its
   * rows with {@code key(byte[])} and {@code value(byte[])} into reused arrays: the copies JNI
   * makes anyway, without allocating. The scan ends after its row count, which is where its stop
   * row is (the rows are dense), so no upper bound is needed.
   */
  @Override
  public Worker.Factory scanners(ScanRanges ranges, boolean cacheBlocks, LongAdder wrongRows) {
    RowShape shape = ranges.shape();
    int recordLength = YcsbRecord.length(shape);
    return thread ->
        new Worker() {
          private final ReadOptions options =
              new ReadOptions()
                  .setFillCache(cacheBlocks)
                  .setReadaheadSize(ranges.scanRows() == 0 ? LONG_SCAN_READAHEAD : 0);
          private final RocksIterator iterator = db.newIterator(options);
          private final ScanRanges.Cursor cursor = ranges.cursor(thread);
          private final byte[] key = new byte[shape.keyLength()];
          private final byte[] value = new byte[recordLength];

          @Override
          public long execute(long iteration) throws IOException {
            cursor.next();
            long expected = cursor.rows();
            long seen = 0;
            long good = 0;
            iterator.seek(cursor.startKey());
            for (; seen < expected && iterator.isValid(); iterator.next()) {
              seen++;
              if (iterator.key(key) == key.length && iterator.value(value) == recordLength) {
                good++;
              }
            }
            try {
              iterator.status();
            } catch (RocksDBException e) {
              throw new IOException("RocksDB scan failed: " + e.getMessage(), e);
            }
            CellarSide.countWrong(wrongRows, expected, seen, good);
            return good;
          }

          @Override
          public void close() {
            iterator.close();
            options.close();
          }
        };
  }

  /**
   * Rows of the batch go in one {@link WriteBatch} (reused, cleared per batch) written with the WAL
   * on and {@code sync}: RocksDB forces its log with {@code fdatasync} (its default {@code
   * use_fsync=false}).
   */
  @Override
  public Worker.Factory batchWriters(NewRows rows, int batchRows) {
    int columns = rows.shape().columns();
    return thread ->
        new Worker() {
          private final NewRows.Cursor cursor = rows.cursor(thread);
          private final WriteBatch batch = new WriteBatch();

          @Override
          public long execute(long iteration) throws IOException {
            try {
              batch.clear();
              for (int i = 0; i < batchRows; i++) {
                byte[] key = cursor.nextKey();
                batch.put(key, columns == 1 ? cursor.value(0) : YcsbRecord.encode(cursor.values()));
              }
              db.write(syncedWrites, batch);
            } catch (RocksDBException e) {
              throw new IOException("RocksDB batch write failed: " + e.getMessage(), e);
            }
            return batchRows;
          }

          @Override
          public void close() {
            batch.close();
          }
        };
  }

  @Override
  public long diskBytes() throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      long sum = 0;
      for (Path file : files.filter(f -> f.toString().endsWith(".sst")).toList()) {
        sum += Files.size(file);
      }
      return sum;
    }
  }

  @Override
  public String cacheSinceLastCall() {
    long hits = statistics.getTickerCount(TickerType.BLOCK_CACHE_HIT);
    long misses = statistics.getTickerCount(TickerType.BLOCK_CACHE_MISS);
    long newHits = hits - lastHits;
    long newMisses = misses - lastMisses;
    lastHits = hits;
    lastMisses = misses;
    double ratio = newHits + newMisses == 0 ? Double.NaN : (double) newHits / (newHits + newMisses);
    return String.format(
        "block cache hit ratio %.3f (%,d hits, %,d misses)", ratio, newHits, newMisses);
  }

  @Override
  public void close() {
    db.close();
    closeOptions();
  }

  private void closeOptions() {
    writeOptions.close();
    syncedWrites.close();
    readOptions.close();
    options.close();
    statistics.close();
    bloom.close();
    cache.close();
  }
}
