package dev.cellar.cli.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.cli.CliRun;
import dev.cellar.cli.pe.LoadRunner;
import dev.cellar.cli.pe.PeData;
import dev.cellar.cli.pe.RunMeasurement;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cellar bench rocksdb} on a tiny data set, and both stores' answers checked directly. */
class RocksDbCompareCommandTest {

  @TempDir Path dir;

  @Test
  void comparesBothStoresInEveryScenario() throws IOException {
    Path json = dir.resolve("compare.json");
    CliRun run = CliRun.of("bench", "rocksdb", "--rows", "3000", "--valueSize", "200",
        "--threads", "2", "--ops", "4000", "--warmup", "1000", "--cacheRatio", "1.5,0.333",
        "--progress", "0", "--verify", "500", "--json", json.toString());
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
  }

  @Test
  void comparesWithAnOffHeapL2() {
    CliRun run = CliRun.of("bench", "rocksdb", "--rows", "30000", "--valueSize", "1000",
        "--threads", "2", "--ops", "3000", "--warmup", "1000", "--cacheRatio", "1.5",
        "--cacheTier", "L2", "--progress", "0", "--verify", "100");
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().contains("L1 (index, bloom) + L2 offheap (data)"), run.toString());
    assertTrue(run.out().contains("L2 hit ratio"), run.toString());
    assertTrue(!run.out().contains("WARNING"), "every get found its value: " + run);
  }

  @Test
  void bothStoresReturnTheRowsValues() throws IOException {
    RowValues values = new RowValues(9, 300);
    List<ComparedStore.Opener> openers = List.of(
        CellarSide.opener(CellarSide.CacheTier.L2, CellarConfig.defaults(), CellarSide.Api.VIEW),
        RocksDbSide::open);
    for (int s = 0; s < openers.size(); s++) {
      Path directory = dir.resolve("store" + s);
      try (ComparedStore store = openers.get(s).open(directory, 64L << 20)) {
        for (long row = 0; row < 500; row++) {
          store.put(PeData.format(row), values.of(row));
        }
        store.flushAndCompact();
      }
      try (ComparedStore store = openers.get(s).open(directory, 64L << 20)) {
        for (long row = 0; row < 500; row++) {
          assertArrayEquals(values.of(row), store.get(PeData.format(row)),
              store.name() + " row " + row);
        }
        assertNull(store.get(PeData.format(500)), store.name());
        RunMeasurement reads = LoadRunner.run(new LoadRunner.Plan("reads", 2, 300, 0, 1.0, 0),
            store.readers(500, 300, 1), new PrintStream(PrintStream.nullOutputStream()));
        assertEquals(600, reads.rows(), store.name() + ": every random get found its value");
        RunMeasurement misses = LoadRunner.run(new LoadRunner.Plan("misses", 1, 100, 0, 1.0, 0),
            store.readers(500, 299, 1), new PrintStream(PrintStream.nullOutputStream()));
        assertEquals(0, misses.rows(), store.name() + ": a wrong value size is not counted");
        assertTrue(store.diskBytes() > 500 * 300, store.name());
      }
    }
  }

  @Test
  void comparesBatchedSyncedWrites() throws IOException {
    Path json = dir.resolve("write.json");
    CliRun run = CliRun.of("bench", "rocksdb", "--workload", "write", "--rows", "2000",
        "--valueSize", "200", "--threads", "2", "--ops", "40", "--batch", "10", "--warmup", "200",
        "--progress", "0", "--verify", "50", "--json", json.toString());
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
    NewRows rows = NewRows.after(1000, 5, 100, 16);
    List<ComparedStore.Opener> openers = List.of(
        CellarSide.opener(CellarSide.CacheTier.L1, CellarConfig.defaults(), CellarSide.Api.VIEW),
        RocksDbSide::open);
    for (int s = 0; s < openers.size(); s++) {
      try (ComparedStore store = openers.get(s).open(dir.resolve("store" + s), 64L << 20)) {
        RunMeasurement writes = LoadRunner.run(new LoadRunner.Plan("writes", 2, 5, 0, 1.0, 0),
            store.batchWriters(rows, 20), new PrintStream(PrintStream.nullOutputStream()));
        assertEquals(10, writes.operations(), store.name());
        assertEquals(200, writes.rows(), store.name() + ": rows are counted per batch");
        for (int thread = 0; thread < 2; thread++) {
          NewRows.Cursor cursor = rows.cursor(thread);
          for (int i = 0; i < 100; i++) {
            byte[] key = cursor.nextKey();
            assertArrayEquals(cursor.value(), store.get(key), store.name() + " thread " + thread
                + " row " + i);
            long number = Long.parseLong(new String(key, StandardCharsets.US_ASCII));
            assertTrue(number >= 1000 && number < 2000, "a new row past the loaded ones");
          }
        }
      }
    }
  }

  @Test
  void badOptionsAreRejected() {
    CliRun run = CliRun.of("bench", "rocksdb", "--cacheRatio", "0", "--rows", "10");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--cacheRatio needs ratios in (0, 100]"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--cacheTier", "L3");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--cacheTier must be L1 or L2, was L3"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--workload", "get,scan");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--workload takes get and write, was scan"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--workload", "write", "--batch", "0");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--batch must be at least 1, was 0"), run.toString());
    run = CliRun.of("bench", "rocksdb", "--cacheTier", "L2", "--rows", "1000");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--cacheTier L2 needs a cache of at least 40 MiB"),
        run.toString());
  }
}
