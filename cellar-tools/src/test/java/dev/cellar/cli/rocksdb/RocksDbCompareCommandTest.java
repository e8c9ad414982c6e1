package dev.cellar.cli.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.cli.CliRun;
import dev.cellar.cli.pe.LoadRunner;
import dev.cellar.cli.pe.RunMeasurement;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code cellar bench rocksdb} on a tiny data set, and both stores' answers checked directly. */
class RocksDbCompareCommandTest {

  private static final PrintStream QUIET = new PrintStream(PrintStream.nullOutputStream());

  @TempDir Path dir;

  @Test
  void comparesBothStoresInEveryScenario() throws IOException {
    Path json = dir.resolve("compare.json");
    CliRun run =
        CliRun.of(
            "bench",
            "rocksdb",
            "--rows",
            "3000",
            "--value-size",
            "200",
            "--threads",
            "2",
            "--ops",
            "4000",
            "--warmup",
            "1000",
            "--cache-ratio",
            "1.5,0.333",
            "--progress",
            "0",
            "--verify",
            "500",
            "--json",
            json.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().contains("cache 1.50 x data"), run.toString());
    assertTrue(run.out().contains("cache 0.33 x data"), run.toString());
    assertTrue(run.out().contains("Cellar/RocksDB"), run.toString());
    assertTrue(!run.out().contains("WARNING"), "every get found its value: " + run);
    assertTrue(run.err().contains("Cellar: values of 502 rows checked"), run.toString());
    assertTrue(run.err().contains("RocksDB: values of 502 rows checked"), run.toString());
    String text = Files.readString(json);
    assertTrue(text.contains("\"heapBytesPerGet\""), text);
    assertTrue(text.contains("\"cellarOverRocksDbOpsPerSecond\""), text);
    assertTrue(run.out().contains("gets/s Cellar/RocksDB per round: median"), run.toString());
    assertTrue(
        text.matches("(?s).*\"roundOpsPerSecond\" *: *\\[[^,\\]]+(,[^,\\]]+){4}\\].*"),
        "five rounds per store by default: " + text);
    assertTrue(text.contains("\"cellarOverRocksDbOpsPerSecondMedianOfRounds\""), text);
  }

  @Test
  void comparesScansOfYcsbShapedRows() throws IOException {
    Path json = dir.resolve("scan.json");
    CliRun run =
        CliRun.of(
            "bench",
            "rocksdb",
            "--workload",
            "get,scan",
            "--rows",
            "3000",
            "--value-size",
            "100",
            "--columns",
            "10",
            "--key-length",
            "16",
            "--threads",
            "2",
            "--ops",
            "40",
            "--scan-rows",
            "100",
            "--cache-ratio",
            "1.5",
            "--progress",
            "0",
            "--verify",
            "100",
            "--family",
            "DATA_BLOCK_ENCODING=FAST_DIFF",
            "--json",
            json.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().contains("a 16-byte key and 10 values of 100 bytes"), run.toString());
    assertTrue(run.out().contains("scans of 100 rows from random rows"), run.toString());
    assertTrue(
        run.out().contains("Cellar family: {DATA_BLOCK_ENCODING=FAST_DIFF}"), run.toString());
    assertTrue(run.out().contains("MB/s"), run.toString());
    assertTrue(run.out().contains("uniform random gets"), run.toString());
    assertTrue(!run.out().contains("WARNING"), "every scan read its rows: " + run);
    String text = Files.readString(json);
    assertTrue(text.contains("\"megabytesPerSecond\""), text);
    assertTrue(text.contains("\"cellarOverRocksDbScanMegabytesPerSecond\""), text);
    assertTrue(run.out().contains("rows/s Cellar/RocksDB per round: median"), run.toString());
    assertTrue(text.contains("\"roundRowsPerSecond\""), text);
  }

  @Test
  void comparesWithAnOffHeapL2() {
    CliRun run =
        CliRun.of(
            "bench",
            "rocksdb",
            "--rows",
            "30000",
            "--value-size",
            "1000",
            "--threads",
            "2",
            "--ops",
            "3000",
            "--warmup",
            "1000",
            "--cache-ratio",
            "1.5",
            "--cache-tier",
            "L2",
            "--progress",
            "0",
            "--verify",
            "100");
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().contains("L1 (index, bloom) + L2 offheap (data)"), run.toString());
    assertTrue(run.out().contains("L2 hit ratio"), run.toString());
    assertTrue(!run.out().contains("WARNING"), "every get found its value: " + run);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void bothStoresReturnTheRowsValues(int columns) throws IOException {
    RowShape shape = new RowShape(columns == 1 ? 26 : 16, columns, 300);
    RowValues values = new RowValues(9, shape);
    List<ComparedStore.Opener> openers =
        List.of(
            CellarSide.opener(
                CellarSide.CacheTier.L2, CellarConfig.defaults(), CellarSide.Api.VIEW),
            RocksDbSide::open);
    for (int s = 0; s < openers.size(); s++) {
      Path directory = dir.resolve("store" + s);
      try (ComparedStore store = openers.get(s).open(directory, 64L << 20)) {
        for (long row = 0; row < 500; row++) {
          store.put(shape.key(row), values.of(row));
        }
        store.flushAndCompact();
      }
      try (ComparedStore store = openers.get(s).open(directory, 64L << 20)) {
        for (long row = 0; row < 500; row++) {
          assertArrayEquals(
              values.of(row), store.get(shape, shape.key(row)), store.name() + " row " + row);
        }
        assertNull(store.get(shape, shape.key(500)), store.name());
        RunMeasurement reads =
            LoadRunner.run(
                new LoadRunner.Plan("reads", 2, 300, 0, 1.0, 0),
                store.readers(shape, 500, 1),
                QUIET);
        assertEquals(600, reads.rows(), store.name() + ": every random get found its values");
        RunMeasurement misses =
            LoadRunner.run(
                new LoadRunner.Plan("misses", 1, 100, 0, 1.0, 0),
                store.readers(new RowShape(shape.keyLength(), columns, 299), 500, 1),
                QUIET);
        assertEquals(0, misses.rows(), store.name() + ": a wrong value size is not counted");
        assertTrue(store.diskBytes() > 500 * 300 * columns, store.name());
      }
    }
  }

  @Test
  void bothStoresScanEveryRowOfEveryRange() throws IOException {
    RowShape shape = new RowShape(16, 2, 100);
    RowValues values = new RowValues(3, shape);
    List<ComparedStore.Opener> openers =
        List.of(
            CellarSide.opener(
                CellarSide.CacheTier.L1, CellarConfig.defaults(), CellarSide.Api.VIEW),
            CellarSide.opener(
                CellarSide.CacheTier.L1, CellarConfig.defaults(), CellarSide.Api.RESULT),
            RocksDbSide::open);
    for (int s = 0; s < openers.size(); s++) {
      Path directory = dir.resolve("store" + s);
      try (ComparedStore store = openers.get(s).open(directory, 64L << 20)) {
        for (long row = 0; row < 1000; row++) {
          store.put(shape.key(row), values.of(row));
        }
        store.flushAndCompact();
        LongAdder wrong = new LongAdder();
        RunMeasurement shares =
            LoadRunner.run(
                new LoadRunner.Plan("shares", 3, 2, 0, 1.0, 0),
                store.scanners(new ScanRanges(shape, 1000, 3, 0, 1), true, wrong),
                QUIET);
        assertEquals(2000, shares.rows(), store.name() + ": each round reads every row once");
        RunMeasurement ranges =
            LoadRunner.run(
                new LoadRunner.Plan("ranges", 2, 50, 0, 1.0, 0),
                store.scanners(new ScanRanges(shape, 1000, 2, 30, 1), false, wrong),
                QUIET);
        assertTrue(ranges.rows() > 50 * 2 * 20, store.name() + ": " + ranges.rows());
        assertEquals(0, wrong.sum(), store.name());
        store
            .scanners(new ScanRanges(new RowShape(16, 2, 99), 1000, 1, 10, 1), true, wrong)
            .create(0)
            .execute(0);
        assertTrue(wrong.sum() > 0, store.name() + ": rows of the wrong shape are counted");
      }
    }
  }

  @Test
  void comparesBatchedSyncedWrites() throws IOException {
    Path json = dir.resolve("write.json");
    CliRun run =
        CliRun.of(
            "bench",
            "rocksdb",
            "--workload",
            "write",
            "--rows",
            "2000",
            "--value-size",
            "200",
            "--threads",
            "2",
            "--ops",
            "40",
            "--batch",
            "10",
            "--warmup",
            "200",
            "--progress",
            "0",
            "--verify",
            "50",
            "--json",
            json.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().contains("write: batches of 10 new random rows"), run.toString());
    assertTrue(run.out().contains("heap B/row"), run.toString());
    assertTrue(run.out().contains("Cellar/RocksDB"), run.toString());
    assertTrue(!run.out().contains("cache 1.50 x data"), "no gets: " + run);
    assertTrue(!run.out().contains("WARNING"), "every written row reads back: " + run);
    assertTrue(run.err().contains("Cellar: values of 50 written rows checked"), run.toString());
    assertTrue(run.err().contains("RocksDB: values of 50 written rows checked"), run.toString());
    String text = Files.readString(json);
    assertTrue(text.contains("\"heapBytesPerRow\""), text);
    assertTrue(text.contains("\"cellarOverRocksDbRowsPerSecond\""), text);
  }

  @Test
  void bothStoresWriteTheBatchesTheirCursorsGive() throws IOException {
    NewRows rows = NewRows.after(RowShape.pe(100), 1000, 5, 16);
    List<ComparedStore.Opener> openers =
        List.of(
            CellarSide.opener(
                CellarSide.CacheTier.L1, CellarConfig.defaults(), CellarSide.Api.VIEW),
            RocksDbSide::open);
    for (int s = 0; s < openers.size(); s++) {
      try (ComparedStore store = openers.get(s).open(dir.resolve("store" + s), 64L << 20)) {
        RunMeasurement writes =
            LoadRunner.run(
                new LoadRunner.Plan("writes", 2, 5, 0, 1.0, 0),
                store.batchWriters(rows, 20),
                QUIET);
        assertEquals(10, writes.operations(), store.name());
        assertEquals(200, writes.rows(), store.name() + ": rows are counted per batch");
        for (int thread = 0; thread < 2; thread++) {
          NewRows.Cursor cursor = rows.cursor(thread);
          for (int i = 0; i < 100; i++) {
            byte[] key = cursor.nextKey();
            assertArrayEquals(
                cursor.values(),
                store.get(rows.shape(), key),
                store.name() + " thread " + thread + " row " + i);
            long number = Long.parseLong(new String(key, StandardCharsets.US_ASCII));
            assertTrue(number >= 1000 && number < 2000, "a new row past the loaded ones");
          }
        }
      }
    }
  }

  @Test
  void badOptionsAreRejected() {
    CliRun run = CliRun.of("bench", "rocksdb", "--cache-ratio", "0", "--rows", "10");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--cache-ratio needs ratios in (0, 100]"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--cache-tier", "L3");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--cache-tier must be L1 or L2, was L3"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--workload", "get,seek");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(
        run.err().contains("--workload takes get, scan and write, was seek"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--workload", "scan", "--scan-rows", "-1");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--scan-rows must be 0 or more, was -1"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--family", "DATA_BLOCK_ENCODING=SQUEEZED");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("DATA_BLOCK_ENCODING"), run.toString());
    assertTrue(run.err().contains("SQUEEZED"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--rounds", "0");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--rounds must be at least 1, was 0"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--key-length", "8");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--key-length must be between 10 and 64, was 8"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--workload", "write", "--batch", "0");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--batch must be at least 1, was 0"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--cache-tier", "L2", "--rows", "1000");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(
        run.err().contains("--cache-tier L2 needs a cache of at least 40 MiB"), run.toString());
  }
}
