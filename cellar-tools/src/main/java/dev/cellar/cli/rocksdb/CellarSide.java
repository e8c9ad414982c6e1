package dev.cellar.cli.rocksdb;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.RowReader;
import dev.cellar.RowScanner;
import dev.cellar.RowView;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Cell;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.cli.pe.PeData;
import dev.cellar.cli.pe.Worker;
import dev.cellar.schema.Durability;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Cellar's side: PE's table ({@code TestTable}, family {@code info0} with HBase's defaults: 64 KiB
 * blocks, ROW bloom, no encoding or compression), columns {@code info0:0 .. info0:<columns-1>}. The
 * block cache is L1 only (on the heap) or, for {@link CacheTier#L2}, a small L1 for index and bloom
 * blocks plus an off-heap L2 bucket cache for data blocks; either way its total is the size asked
 * for. Loads with {@code SKIP_WAL}; reads with the public API, closing every result; writes batches
 * with {@code SYNC_WAL}, whose log force is an {@code fdatasync}.
 */
final class CellarSide implements ComparedStore {

  static final String TABLE = "TestTable";
  private static final byte[] FAMILY = PeData.family(0);

  /** The qualifier of a one-column shape, made once as PE's {@code COLUMN_ZERO} is. */
  private static final byte[] FIRST_QUALIFIER = PeData.qualifier(0);

  /** Where Cellar's block cache lives. */
  enum CacheTier {
    L1,
    L2
  }

  /**
   * How Cellar reads: {@code VIEW} through a {@link RowReader} per thread and a reused {@link Get},
   * and scans through a {@link RowScanner} (allocating nothing per row); {@code RESULT} through
   * {@link Table#get(Get)} with a new Get and through {@link Table#scanner(Scan)}, with a closed
   * {@link Result} per row (HBase's style).
   */
  enum Api {
    VIEW,
    RESULT
  }

  private final Path directory;
  private final Cellar cellar;
  private final Table table;
  private final Api api;
  private CacheFigures lastCache;

  private CellarSide(Path directory, Cellar cellar, Table table, Api api) {
    this.directory = directory;
    this.cellar = cellar;
    this.table = table;
    this.api = api;
    this.lastCache = CacheFigures.of(EngineAccess.engine(cellar).blockCache());
  }

  static ComparedStore.Opener opener(CacheTier tier, CellarConfig base, Api api) {
    return opener(tier, base, api, Map.of());
  }

  /** As above, the family created with {@code familyAttributes} (HBase's names) when new. */
  static ComparedStore.Opener opener(
      CacheTier tier, CellarConfig base, Api api, Map<String, String> familyAttributes) {
    return (directory, cacheBytes) -> {
      Cellar cellar = Cellar.open(directory, config(base, tier, cacheBytes));
      try {
        if (!cellar.admin().tableExists(TABLE)) {
          cellar
              .admin()
              .createTable(
                  TableDescriptor.of(
                      TABLE, ColumnFamilyDescriptor.of(PeData.familyName(0), familyAttributes)));
        }
        return new CellarSide(directory, cellar, cellar.table(TABLE), api);
      } catch (IOException | RuntimeException e) {
        cellar.close();
        throw e;
      }
    };
  }

  /**
   * The cache settings for {@code cacheBytes} in all: all of it in the L1, or a twentieth (at least
   * 8 MiB) in the L1 and the rest in an off-heap L2.
   */
  static CellarConfig config(CellarConfig base, CacheTier tier, long cacheBytes) {
    if (tier == CacheTier.L1) {
      return base.with("hfile.block.cache.memory.size", Long.toString(cacheBytes));
    }
    long l1 = Math.max(8L << 20, cacheBytes / 20);
    long l2MiB = Math.max(1, (cacheBytes - l1) >> 20);
    return base.with("hfile.block.cache.memory.size", Long.toString(l1))
        .with("hbase.bucketcache.ioengine", "offheap")
        .with("hbase.bucketcache.size", Long.toString(l2MiB));
  }

  /** The bytes of cache the settings of {@link #config} give, as both sides get them. */
  static long totalCacheBytes(CacheTier tier, long cacheBytes) {
    if (tier == CacheTier.L1) {
      return cacheBytes;
    }
    long l1 = Math.max(8L << 20, cacheBytes / 20);
    return l1 + (Math.max(1, (cacheBytes - l1) >> 20) << 20);
  }

  @Override
  public String name() {
    return api == Api.VIEW ? "Cellar" : "Cellar (Result)";
  }

  @Override
  public void put(byte[] key, byte[][] values) throws IOException {
    Put put = new Put(key).setDurability(Durability.SKIP_WAL);
    for (int column = 0; column < values.length; column++) {
      put.addColumn(FAMILY, PeData.qualifier(column), values[column]);
    }
    table.put(put);
  }

  @Override
  public void flushAndCompact() throws IOException {
    cellar.admin().flush(TABLE);
    cellar.admin().majorCompact(TABLE);
  }

  @Override
  public byte[][] get(RowShape shape, byte[] key) throws IOException {
    try (Result result = table.get(new Get(key).addFamily(FAMILY))) {
      if (result.isEmpty()) {
        return null;
      }
      byte[][] values = new byte[shape.columns()][];
      for (int column = 0; column < values.length; column++) {
        values[column] = result.getValue(FAMILY, PeData.qualifier(column));
      }
      return values;
    }
  }

  /**
   * The Get a reader reuses: the one column of a one-column shape (PE's read), else the whole
   * family (YCSB's read of every field).
   */
  private static Get readGet(RowShape shape, byte[] row) {
    Get get = new Get(row);
    return shape.columns() == 1 ? get.addColumn(FAMILY, FIRST_QUALIFIER) : get.addFamily(FAMILY);
  }

  /** Whether {@code cells} are the shape's columns with values of its size. */
  private static boolean wellShaped(List<Cell> cells, RowShape shape) {
    if (cells.size() != shape.columns()) {
      return false;
    }
    for (int i = 0; i < cells.size(); i++) {
      if (cells.get(i).valueLength() != shape.valueSize()) {
        return false;
      }
    }
    return true;
  }

  /** Copies every cell's value into {@code buffer}, one after the other (read in place). */
  private static void copyValues(List<Cell> cells, byte[] buffer) {
    for (int i = 0; i < cells.size(); i++) {
      Cell cell = cells.get(i);
      MemorySegment.copy(
          cell.valueSegment(),
          ValueLayout.JAVA_BYTE,
          cell.valueOffset(),
          buffer,
          0,
          cell.valueLength());
    }
  }

  @Override
  public Worker.Factory readers(RowShape shape, long rows, long seed) {
    return api == Api.VIEW ? viewReaders(shape, rows, seed) : resultReaders(shape, rows, seed);
  }

  private Worker.Factory viewReaders(RowShape shape, long rows, long seed) {
    return thread ->
        new Worker() {
          private final RandomRows random = new RandomRows(shape, rows, seed, thread);
          private final RowReader reader = table.rowReader();
          private final Get get = readGet(shape, shape.key(0));
          private final byte[] value = new byte[shape.valueSize()];

          @Override
          public long execute(long iteration) throws IOException {
            RowView row = reader.getView(get.setRow(random.nextKey()));
            if (!wellShaped(row.cells(), shape)) {
              return 0;
            }
            copyValues(row.cells(), value);
            return 1;
          }

          @Override
          public void close() {
            reader.close();
          }
        };
  }

  private Worker.Factory resultReaders(RowShape shape, long rows, long seed) {
    return thread ->
        new Worker() {
          private final RandomRows random = new RandomRows(shape, rows, seed, thread);

          @Override
          public long execute(long iteration) throws IOException {
            try (Result result = table.get(readGet(shape, random.nextKey()))) {
              return wellShaped(result.rawCells(), shape) ? 1 : 0;
            }
          }

          @Override
          public void close() {}
        };
  }

  /**
   * Each scan opens a scanner from its start row to its stop row (exclusive) and reads every row:
   * the row key and each value are copied into reused arrays from the cells, which are views into
   * cached blocks. {@code VIEW} reads through a {@link RowScanner} (one reused view), {@code
   * RESULT} through a {@link ResultScanner}, closing each row's {@link Result} once read.
   */
  @Override
  public Worker.Factory scanners(ScanRanges ranges, boolean cacheBlocks, LongAdder wrongRows) {
    RowShape shape = ranges.shape();
    return thread ->
        new Worker() {
          private final ScanRanges.Cursor cursor = ranges.cursor(thread);
          private final byte[] key = new byte[shape.keyLength()];
          private final byte[] value = new byte[shape.valueSize()];
          private long seen;

          @Override
          public long execute(long iteration) throws IOException {
            cursor.next();
            Scan scan = new Scan().withStartRow(cursor.startKey()).setCacheBlocks(cacheBlocks);
            if (cursor.stopKey() != null) {
              scan.withStopRow(cursor.stopKey());
            }
            seen = 0;
            long good = api == Api.VIEW ? scanViews(scan) : scanResults(scan);
            countWrong(wrongRows, cursor.rows(), seen, good);
            return good;
          }

          private long scanViews(Scan scan) throws IOException {
            long good = 0;
            try (RowScanner scanner = table.rowScanner(scan)) {
              for (RowView row = scanner.nextView(); row != null; row = scanner.nextView()) {
                seen++;
                good += read(row.cells());
              }
            }
            return good;
          }

          private long scanResults(Scan scan) throws IOException {
            long good = 0;
            try (ResultScanner scanner = table.scanner(scan)) {
              for (Result next = scanner.next(); next != null; next = scanner.next()) {
                try (Result result = next) {
                  seen++;
                  good += read(result.rawCells());
                }
              }
            }
            return good;
          }

          /** Copies the row's key and values out; 1 if the row has the shape, else 0. */
          private int read(List<Cell> cells) {
            Cell first = cells.get(0);
            if (first.rowLength() != key.length || !wellShaped(cells, shape)) {
              return 0;
            }
            MemorySegment.copy(
                first.segment(), ValueLayout.JAVA_BYTE, first.rowOffset(), key, 0, key.length);
            copyValues(cells, value);
            return 1;
          }

          @Override
          public void close() {}
        };
  }

  /** Adds what a scan got wrong: rows missing or extra, and rows of the wrong shape. */
  static void countWrong(LongAdder wrongRows, long expected, long seen, long good) {
    long wrong = Math.abs(expected - seen) + (seen - good);
    if (wrong > 0) {
      wrongRows.add(wrong);
    }
  }

  /** Puts of the batch go in one {@code Table.put(List)} with {@code SYNC_WAL} (the default). */
  @Override
  public Worker.Factory batchWriters(NewRows rows, int batchRows) {
    int columns = rows.shape().columns();
    byte[][] qualifiers = new byte[columns][];
    for (int column = 0; column < columns; column++) {
      qualifiers[column] = PeData.qualifier(column);
    }
    return thread ->
        new Worker() {
          private final NewRows.Cursor cursor = rows.cursor(thread);
          private final List<Put> batch = new ArrayList<>(batchRows);

          @Override
          public long execute(long iteration) throws IOException {
            batch.clear();
            for (int i = 0; i < batchRows; i++) {
              Put put = new Put(cursor.nextKey());
              for (int column = 0; column < columns; column++) {
                put.addColumn(FAMILY, qualifiers[column], cursor.value(column));
              }
              batch.add(put);
            }
            table.put(batch);
            return batchRows;
          }

          @Override
          public void close() {}
        };
  }

  @Override
  public long diskBytes() throws IOException {
    try (Stream<Path> files = Files.walk(directory.resolve("tables"))) {
      long sum = 0;
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        sum += Files.size(file);
      }
      return sum;
    }
  }

  @Override
  public String cacheSinceLastCall() {
    CacheFigures now = CacheFigures.of(EngineAccess.engine(cellar).blockCache());
    CacheFigures delta = now.since(lastCache);
    lastCache = now;
    StringJoiner line = new StringJoiner("; ");
    for (CacheFigures.Tier tier : delta.tiers()) {
      line.add(
          String.format(
              "%s hit ratio %.3f (%,d hits, %,d misses%s)",
              tier.name(),
              tier.hitRatio(),
              tier.hits(),
              tier.misses(),
              tier.leftOut() == 0 ? "" : String.format(", %,d of them left out", tier.leftOut())));
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    cellar.close();
  }
}
