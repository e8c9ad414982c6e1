package dev.cellar.bench;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.RowReader;
import dev.cellar.RowView;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Cell;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * A cached point Get end to end, side by side: Cellar's zero-garbage {@link RowReader} with a
 * reused Get, Cellar's {@link Table#get} with a new Get and Result per read (HBase's style), and
 * RocksDB's {@code get} into a reused array. Both stores hold the same {@value #ROWS} rows ({@link
 * PeCells}: 26-byte keys and {@code columns} values of {@code valueSize} bytes: PE's rows with one
 * column of 1000 bytes, YCSB's with ten of 100), flushed and compacted, with a block cache of twice
 * the data: Cellar's L1, or ({@code tier=L2}) an 8 MiB L1 for index and bloom blocks and an
 * off-heap L2 for data, its family's blocks encoded as {@code encoding} says (NONE, or a delta
 * encoding: PREFIX, DIFF, FAST_DIFF); RocksDB's LRU cache with 64 KiB blocks, a 10-bit bloom and
 * index and filter blocks in the cache, as {@code cellar bench rocksdb} sets it up. RocksDB holds a
 * row of several columns as YCSB's RocksDB binding does, one value per key with the fields one
 * after the other ({@link #record}), and a Cellar Get of such a row asks for the whole family, as
 * YCSB's reads do. Every read copies the values out (into a reused array) so all three do the same
 * work. Keys are replayed from {@link RandomKeys}; the caches are warmed by reading every row
 * before measuring.
 *
 * <p>Run: {@code ./cellar bench jmh CachedGetBenchmark -prof gc}; {@code gc.alloc.rate.norm} is
 * heap bytes per Get. YCSB's rows: {@code -p columns=10 -p valueSize=100}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CachedGetBenchmark extends BenchmarkBase {

  static final int ROWS = 100_000;
  private static final byte[] FAMILY = PeCells.FAMILY;
  private static final byte[] QUALIFIER = PeCells.QUALIFIER;

  /** Cellar's database, with the rows loaded and every row read once. */
  @State(Scope.Benchmark)
  public static class CellarStore {
    @Param({"L1", "L2"})
    public String tier;

    @Param({"1000"})
    public int valueSize;

    /** Values per row; a Get of more than one asks for the whole family. */
    @Param({"1"})
    public int columns;

    /** The family's {@code DATA_BLOCK_ENCODING}. */
    @Param({"NONE"})
    public String encoding;

    TempDir dir;
    Cellar cellar;
    Table table;
    byte[][] keys;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      dir = new TempDir("cellar-cached-get-");
      long cacheBytes = 2L * ROWS * (26 + (long) columns * valueSize);
      CellarConfig config =
          tier.equals("L1")
              ? CellarConfig.defaults()
                  .with("hfile.block.cache.memory.size", Long.toString(cacheBytes))
              : CellarConfig.defaults()
                  .with("hfile.block.cache.memory.size", "8m")
                  .with("hbase.bucketcache.ioengine", "offheap")
                  .with("hbase.bucketcache.size", Long.toString(cacheBytes >> 20));
      cellar = Cellar.open(dir.resolve("db"), config);
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("info", Map.of("DATA_BLOCK_ENCODING", encoding))));
      table = cellar.table("t");
      keys = rowKeys();
      Random random = new Random(7);
      for (int i = 0; i < ROWS; i++) {
        Put put = new Put(keys[i]).setDurability(Durability.SKIP_WAL);
        for (int column = 0; column < columns; column++) {
          put.addColumn(FAMILY, qualifier(column), PeCells.value(random, valueSize));
        }
        table.put(put);
      }
      cellar.admin().flush("t");
      cellar.admin().majorCompact("t");
      try (RowReader reader = table.rowReader()) {
        Get get = get(keys[0], columns);
        for (byte[] key : keys) {
          reader.getView(get.setRow(key));
        }
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      cellar.close();
      dir.close();
    }
  }

  /** One thread's reader, reused Get and value buffer. */
  @State(Scope.Thread)
  public static class CellarThread {
    RowReader reader;
    Get get;
    byte[] value;
    RandomKeys random;

    @Setup(Level.Trial)
    public void setUp(CellarStore store) {
      reader = store.table.rowReader();
      get = get(store.keys[0], store.columns);
      value = new byte[store.valueSize];
      random = new RandomKeys(11, ROWS);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      reader.close();
    }
  }

  /** RocksDB with the same rows and an equal block cache. */
  @State(Scope.Benchmark)
  public static class RocksStore {
    @Param({"1000"})
    public int valueSize;

    @Param({"1"})
    public int columns;

    TempDir dir;
    LRUCache cache;
    BloomFilter bloom;
    Options options;
    ReadOptions readOptions;
    RocksDB db;
    byte[][] keys;

    @Setup(Level.Trial)
    public void setUp() throws IOException, RocksDBException {
      RocksDB.loadLibrary();
      dir = new TempDir("rocksdb-cached-get-");
      cache = new LRUCache(2L * ROWS * (26 + (long) columns * valueSize));
      bloom = new BloomFilter(10);
      options =
          new Options()
              .setCreateIfMissing(true)
              .setCompressionType(CompressionType.NO_COMPRESSION)
              .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
              .setWriteBufferSize(128L << 20)
              .setTableFormatConfig(
                  new BlockBasedTableConfig()
                      .setBlockCache(cache)
                      .setBlockSize(64 * 1024)
                      .setFilterPolicy(bloom)
                      .setCacheIndexAndFilterBlocks(true));
      readOptions = new ReadOptions();
      db = RocksDB.open(options, dir.resolve("db").toString());
      keys = rowKeys();
      Random random = new Random(7);
      try (WriteOptions write = new WriteOptions().setDisableWAL(true)) {
        for (int i = 0; i < ROWS; i++) {
          byte[][] values = new byte[columns][];
          for (int column = 0; column < columns; column++) {
            values[column] = PeCells.value(random, valueSize);
          }
          db.put(write, keys[i], record(values));
        }
      }
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        db.flush(flush);
      }
      db.compactRange();
      byte[] value = new byte[recordLength(columns, valueSize)];
      for (byte[] key : keys) {
        db.get(readOptions, key, value);
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      db.close();
      readOptions.close();
      options.close();
      bloom.close();
      cache.close();
      dir.close();
    }
  }

  /** One thread's value buffer and keys for RocksDB. */
  @State(Scope.Thread)
  public static class RocksThread {
    byte[] value;
    RandomKeys random;

    @Setup(Level.Trial)
    public void setUp(RocksStore store) {
      value = new byte[recordLength(store.columns, store.valueSize)];
      random = new RandomKeys(11, ROWS);
    }
  }

  /** Column {@code column}'s qualifier: PE's {@code 0} for the first, its number for the rest. */
  static byte[] qualifier(int column) {
    return column == 0 ? QUALIFIER : Integer.toString(column).getBytes(StandardCharsets.US_ASCII);
  }

  /** A Get of a row of {@code columns} values: its one column, or the whole family. */
  static Get get(byte[] row, int columns) {
    Get get = new Get(row);
    return columns == 1 ? get.addColumn(FAMILY, QUALIFIER) : get.addFamily(FAMILY);
  }

  /**
   * A row as RocksDB holds it: a single value as it is; several, one after the other, each as a
   * 4-byte big-endian qualifier length, the qualifier, a 4-byte big-endian value length and the
   * value (YCSB's RocksDB binding's record).
   */
  static byte[] record(byte[][] values) {
    if (values.length == 1) {
      return values[0];
    }
    ByteBuffer record = ByteBuffer.allocate(recordLength(values.length, values[0].length));
    for (int column = 0; column < values.length; column++) {
      byte[] name = qualifier(column);
      record.putInt(name.length).put(name).putInt(values[column].length).put(values[column]);
    }
    return record.array();
  }

  static int recordLength(int columns, int valueSize) {
    if (columns == 1) {
      return valueSize;
    }
    int length = 0;
    for (int column = 0; column < columns; column++) {
      length += 2 * Integer.BYTES + qualifier(column).length + valueSize;
    }
    return length;
  }

  static byte[][] rowKeys() {
    byte[][] keys = new byte[ROWS][];
    for (int i = 0; i < ROWS; i++) {
      keys[i] = PeCells.row(i);
    }
    return keys;
  }

  @Benchmark
  public int cellarRowReader(CellarStore store, CellarThread thread) throws IOException {
    RowView row = thread.reader.getView(thread.get.setRow(store.keys[thread.random.next()]));
    int copied = 0;
    for (int i = 0; i < row.size(); i++) {
      Cell cell = row.cell(i);
      MemorySegment.copy(
          cell.valueSegment(),
          ValueLayout.JAVA_BYTE,
          cell.valueOffset(),
          thread.value,
          0,
          cell.valueLength());
      copied += cell.valueLength();
    }
    return copied;
  }

  @Benchmark
  public int cellarTableGet(CellarStore store, CellarThread thread) throws IOException {
    Get get = get(store.keys[thread.random.next()], store.columns);
    try (Result result = store.table.get(get)) {
      int length = 0;
      for (Cell cell : result.rawCells()) {
        length += cell.valueLength();
      }
      return length;
    }
  }

  @Benchmark
  public int rocksdb(RocksStore store, RocksThread thread) throws RocksDBException {
    return store.db.get(store.readOptions, store.keys[thread.random.next()], thread.value);
  }
}
