package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.store.ReadSemanticsOracle;
import dev.cellar.store.Region;
import dev.cellar.store.ScanSpec;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random sequences of puts, deletes of every kind, gets and scans with versions and time ranges,
 * interleaved with flushes, minor and major compactions and reopening the database, checked against
 * {@link ReadSemanticsOracle} over every cell written (a major compaction rewrites the oracle's
 * cells to what it kept, as it does the files). Small flush sizes make flushes and compactions
 * happen in the background too. The seed is printed on failure. Runs on a local directory; a
 * subclass runs it on another storage ({@link #location()}).
 */
@ExtendWith(TestSeedExtension.class)
class CellarRandomizedTest {

  private static final int VERSIONS = 3;
  private static final byte[][] FAMILIES = {"a".getBytes(), "b".getBytes()};

  /**
   * The regions of the {@code split} run: boundaries on rows, between rows and before the first, so
   * that gets, scans and batches cross them.
   */
  private static final byte[][] SPLIT_KEYS = {
    "row-030".getBytes(), "row-0105".getBytes(), "row-010".getBytes(), "a".getBytes()
  };

  @TempDir Path directory;

  /** Where the database lives: a local directory here; a subclass may put it elsewhere. */
  String location() {
    return directory.toString();
  }

  /** How many random operations a run makes (fewer on a storage where each costs more). */
  int steps() {
    return 2000;
  }

  /** The settings a subclass's storage needs over the test's own. */
  CellarConfig storageSettings(CellarConfig config) {
    return config;
  }

  private CellarConfig config(String cache) {
    CellarConfig config =
        storageSettings(CellarConfig.defaults())
            .with("hbase.hregion.memstore.flush.size", "32768")
            .with("hbase.hstore.compaction.min", "2")
            .with("hfile.block.cache.memory.size", "4m");
    return cache.equals("l2")
        ? config.with("hbase.bucketcache.ioengine", "offheap").with("hbase.bucketcache.size", "32")
        : config;
  }

  private static TableDescriptor table() {
    Map<String, String> attributes =
        Map.of(
            "VERSIONS",
            Integer.toString(VERSIONS),
            "BLOCKSIZE",
            "1024",
            "DATA_BLOCK_ENCODING",
            "FAST_DIFF");
    return TableDescriptor.of(
        "t",
        ColumnFamilyDescriptor.of("a", attributes),
        ColumnFamilyDescriptor.of(
            "b",
            Map.of(
                "VERSIONS",
                Integer.toString(VERSIONS),
                "BLOCKSIZE",
                "1024",
                "COMPRESSION",
                "SNAPPY")));
  }

  private static byte[] row(int i) {
    return String.format("row-%03d", i).getBytes();
  }

  @ParameterizedTest
  @ValueSource(strings = {"l1", "l2", "split"})
  void randomOperationsMatchTheOracle(String cache, TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    List<Cell> written = new ArrayList<>();
    long sequence = 0;
    Cellar cellar = Cellar.open(location(), config(cache));
    try {
      cellar.admin().createTable(table(), cache.equals("split") ? SPLIT_KEYS : new byte[0][]);
      for (int step = 0; step < steps(); step++) {
        String context = "step " + step;
        int op = random.nextInt(100);
        Table table = cellar.table("t");
        if (op < 5) {
          List<Put> batch = new ArrayList<>();
          for (int i = 0; i < 2 + random.nextInt(4); i++) {
            byte[] family = FAMILIES[random.nextInt(2)];
            batch.add(
                new Put(row(random.nextInt(40)))
                    .addColumn(
                        family,
                        ("q" + random.nextInt(6)).getBytes(),
                        1 + random.nextInt(20),
                        ("b" + step + "-" + i).getBytes()));
          }
          table.batch(batch);
          for (Put put : batch) {
            for (KeyValue cell : put.cells()) {
              written.add(cell.withSequenceId(++sequence));
            }
          }
        } else if (op < 45) {
          Put put = new Put(row(random.nextInt(40)));
          for (int c = 0; c < 1 + random.nextInt(3); c++) {
            byte[] family = FAMILIES[random.nextInt(2)];
            byte[] qualifier = ("q" + random.nextInt(6)).getBytes();
            long ts = 1 + random.nextInt(20);
            byte[] value =
                ("v" + step + "-" + c + "-" + "x".repeat(random.nextInt(200))).getBytes();
            put.addColumn(family, qualifier, ts, value);
          }
          table.put(put);
          for (KeyValue cell : put.cells()) {
            written.add(cell.withSequenceId(++sequence));
          }
        } else if (op < 55) {
          Delete delete = randomDelete(random);
          table.delete(delete);
          for (KeyValue cell : delete.cells()) {
            written.add(cell.withSequenceId(++sequence));
          }
        } else if (op < 75) {
          checkGet(table, written, random, context);
        } else if (op < 90) {
          checkScan(table, written, random, context);
        } else if (op < 94) {
          cellar.admin().flush("t");
        } else if (op < 96) {
          cellar.admin().compact("t");
        } else if (op < 98) {
          cellar.admin().flush("t");
          cellar.admin().majorCompact("t");
          written = majorCompacted(written);
        } else {
          cellar.close();
          cellar = Cellar.open(location(), config(cache));
        }
      }
      checkScan(cellar.table("t"), written, random, "at the end");
    } finally {
      cellar.close();
    }
  }

  private static Delete randomDelete(SplittableRandom random) {
    byte[] row = row(random.nextInt(40));
    byte[] family = FAMILIES[random.nextInt(2)];
    byte[] qualifier = ("q" + random.nextInt(6)).getBytes();
    long ts = 1 + random.nextInt(20);
    return RandomDeletes.of(random, row, family, qualifier, ts);
  }

  private static ScanSpec spec(int versions, long min, long max, List<byte[]> qualifiers) {
    return new ScanSpec(
        qualifiers,
        Math.min(versions, VERSIONS),
        min,
        max,
        Long.MAX_VALUE,
        0,
        System.currentTimeMillis(),
        null);
  }

  private static void checkGet(
      Table table, List<Cell> written, SplittableRandom random, String context) throws IOException {
    byte[] row = row(random.nextInt(40));
    int versions = 1 + random.nextInt(4);
    long min = random.nextInt(3) == 0 ? random.nextInt(10) : 0;
    long max = random.nextInt(3) == 0 ? min + 1 + random.nextInt(15) : Long.MAX_VALUE;
    Get get = new Get(row).readVersions(versions).setTimeRange(min, max);
    List<Cell> relevant = written;
    List<byte[]> qualifiers = null;
    if (random.nextBoolean()) {
      byte[] family = FAMILIES[random.nextInt(2)];
      qualifiers = List.of(("q" + random.nextInt(6)).getBytes());
      get.addColumn(family, qualifiers.get(0));
      relevant = written.stream().filter(c -> Bytes.compare(c.familyArray(), family) == 0).toList();
    }
    List<List<String>> expected =
        ReadSemanticsOracle.scan(
            relevant, spec(versions, min, max, qualifiers), row, Region.rowAfter(row));
    try (Result result = table.get(get)) {
      List<List<String>> actual =
          result.isEmpty()
              ? List.of()
              : List.of(result.rawCells().stream().map(ReadSemanticsOracle::describe).toList());
      assertEquals(expected, actual, context + " get " + Bytes.toStringBinary(row));
    }
  }

  private static void checkScan(
      Table table, List<Cell> written, SplittableRandom random, String context) throws IOException {
    int from = random.nextInt(40);
    byte[] low = random.nextBoolean() ? Bytes.EMPTY : row(from);
    byte[] high = random.nextBoolean() ? Bytes.EMPTY : row(from + random.nextInt(20));
    boolean reversed = random.nextInt(3) == 0;
    int versions = 1 + random.nextInt(4);
    Scan scan =
        new Scan()
            .readVersions(versions)
            .setCacheBlocks(random.nextBoolean())
            .setReversed(reversed);
    List<List<String>> expected;
    if (reversed) {
      scan.withStartRow(high).withStopRow(low);
      expected =
          new ArrayList<>(
              ReadSemanticsOracle.scan(
                  written,
                  spec(versions, 0, Long.MAX_VALUE, null),
                  low.length == 0 ? Bytes.EMPTY : Region.rowAfter(low),
                  high.length == 0 ? Bytes.EMPTY : Region.rowAfter(high)));
      Collections.reverse(expected);
    } else {
      scan.withStartRow(low).withStopRow(high);
      expected =
          ReadSemanticsOracle.scan(written, spec(versions, 0, Long.MAX_VALUE, null), low, high);
    }
    List<List<String>> actual = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(scan)) {
      for (Result result : scanner) {
        try (result) {
          actual.add(result.rawCells().stream().map(ReadSemanticsOracle::describe).toList());
        }
      }
    }
    assertEquals(expected, actual, context + (reversed ? " reversed" : "") + " scan");
  }

  /** What a major compaction keeps: every family's visible versions, as puts. */
  private static List<Cell> majorCompacted(List<Cell> written) {
    List<Cell> kept = new ArrayList<>();
    for (List<Cell> row :
        ReadSemanticsOracle.scanCells(
            written, spec(VERSIONS, 0, Long.MAX_VALUE, null), Bytes.EMPTY, Bytes.EMPTY)) {
      kept.addAll(row);
    }
    return kept;
  }
}
