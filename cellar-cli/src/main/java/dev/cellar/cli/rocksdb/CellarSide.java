package dev.cellar.cli.rocksdb;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Durability;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.RowReader;
import dev.cellar.RowView;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.cli.pe.PeData;
import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.stream.Stream;

/**
 * Cellar's side: PE's table ({@code TestTable}, family {@code info0} with HBase's defaults: 64 KiB
 * blocks, ROW bloom, no encoding or compression), column {@code info0:0}. The block cache is L1
 * only (on the heap) or, for {@link CacheTier#L2}, a small L1 for index and bloom blocks plus an
 * off-heap L2 bucket cache for data blocks; either way its total is the size asked for. Loads
 * with {@code SKIP_WAL}; reads with the public API, closing every result; writes batches with
 * {@code SYNC_WAL}, whose log force is an {@code fdatasync}.
 */
final class CellarSide implements ComparedStore {

  static final String TABLE = "TestTable";
  private static final byte[] FAMILY = PeData.family(0);
  private static final byte[] QUALIFIER = PeData.qualifier(0);

  /** Where Cellar's block cache lives. */
  enum CacheTier { L1, L2 }

  /**
   * How Cellar's gets are read: {@code VIEW} through a {@link RowReader} per thread and a reused
   * {@link Get} (allocating nothing), {@code RESULT} through {@link Table#get(Get)} with a new Get
   * and a closed {@link Result} per read (HBase's style).
   */
  enum Api { VIEW, RESULT }

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
    this.lastCache = CacheFigures.of(cellar.blockCache());
  }

  static ComparedStore.Opener opener(CacheTier tier, CellarConfig base, Api api) {
    return (directory, cacheBytes) -> {
      Cellar cellar = Cellar.open(directory, config(base, tier, cacheBytes));
      try {
        if (!cellar.admin().tableExists(TABLE)) {
          cellar.admin().createTable(TableDescriptor.of(TABLE, ColumnFamilyDescriptor.of(
              PeData.familyName(0))));
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
  public void put(byte[] key, byte[] value) throws IOException {
    table.put(new Put(key).addColumn(FAMILY, QUALIFIER, value).setDurability(Durability.SKIP_WAL));
  }

  @Override
  public void flushAndCompact() throws IOException {
    cellar.admin().flush(TABLE);
    cellar.admin().majorCompact(TABLE);
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    try (Result result = table.get(new Get(key).addColumn(FAMILY, QUALIFIER))) {
      return result.getValue(FAMILY, QUALIFIER);
    }
  }

  @Override
  public Worker.Factory readers(long rows, int valueSize, long seed) {
    return api == Api.VIEW ? viewReaders(rows, valueSize, seed)
        : resultReaders(rows, valueSize, seed);
  }

  private Worker.Factory viewReaders(long rows, int valueSize, long seed) {
    return thread -> new Worker() {
      private final RandomRows random = new RandomRows(rows, seed, thread);
      private final RowReader reader = table.rowReader();
      private final Get get = new Get(PeData.format(0)).addColumn(FAMILY, QUALIFIER);
      private final byte[] value = new byte[valueSize];

      @Override
      public long execute(long iteration) throws IOException {
        RowView row = reader.getView(get.setRow(random.nextKey()));
        return row.valueLength(FAMILY, QUALIFIER) == valueSize
            && row.copyValue(FAMILY, QUALIFIER, value, 0) == valueSize ? 1 : 0;
      }

      @Override
      public void close() {
        reader.close();
      }
    };
  }

  private Worker.Factory resultReaders(long rows, int valueSize, long seed) {
    return thread -> new Worker() {
      private final RandomRows random = new RandomRows(rows, seed, thread);

      @Override
      public long execute(long iteration) throws IOException {
        try (Result result = table.get(new Get(random.nextKey()).addColumn(FAMILY, QUALIFIER))) {
          return !result.isEmpty() && result.rawCells().get(0).valueLength() == valueSize ? 1 : 0;
        }
      }

      @Override
      public void close() {}
    };
  }

  /** Puts of the batch go in one {@code Table.put(List)} with {@code SYNC_WAL} (the default). */
  @Override
  public Worker.Factory batchWriters(NewRows rows, int batchRows) {
    return thread -> new Worker() {
      private final NewRows.Cursor cursor = rows.cursor(thread);
      private final List<Put> batch = new ArrayList<>(batchRows);

      @Override
      public long execute(long iteration) throws IOException {
        batch.clear();
        for (int i = 0; i < batchRows; i++) {
          batch.add(new Put(cursor.nextKey()).addColumn(FAMILY, QUALIFIER, cursor.value()));
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
    CacheFigures now = CacheFigures.of(cellar.blockCache());
    CacheFigures delta = now.since(lastCache);
    lastCache = now;
    StringJoiner line = new StringJoiner("; ");
    for (CacheFigures.Tier tier : delta.tiers()) {
      line.add(String.format("%s hit ratio %.3f (%,d hits, %,d misses)", tier.name(),
          tier.hitRatio(), tier.hits(), tier.misses()));
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    cellar.close();
  }
}
