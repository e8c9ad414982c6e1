package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RowReader}: one reader and one Get reused across rows of different sizes, in files and in
 * the MemStore, returns what {@link Table#get} returns; closed readers and results refuse access; a
 * read of a cached row allocates nothing; a forgotten result is released. The seed of the random
 * rows is printed on failure ({@code -Dcellar.test.seed} replays it).
 */
@ExtendWith(TestSeedExtension.class)
class RowReaderTest {

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] OTHER_FAMILY = bytes("g");
  private static final int ROWS = 300;

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] row(int i) {
    return String.format("row-%05d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] qualifier(int i) {
    return bytes("q" + i);
  }

  private static CellarConfig config(String cache) {
    CellarConfig config = CellarConfig.defaults().with("hfile.block.cache.memory.size", "16m");
    return cache.equals("l2")
        ? config.with("hbase.bucketcache.ioengine", "offheap").with("hbase.bucketcache.size", "64")
        : config;
  }

  private static TableDescriptor table(String encoding) {
    Map<String, String> attributes =
        Map.of("BLOCKSIZE", "4096", "DATA_BLOCK_ENCODING", encoding, "VERSIONS", "2");
    return TableDescriptor.of(
        "t",
        ColumnFamilyDescriptor.of("f", attributes),
        ColumnFamilyDescriptor.of("g", attributes));
  }

  /** Writes ROWS rows of 1 to 5 columns with values of 0 to 20,000 bytes; half flushed. */
  private static void load(Cellar cellar, SplittableRandom random) throws IOException {
    Table table = cellar.table("t");
    for (int i = 0; i < ROWS; i++) {
      if (i == ROWS / 2) {
        cellar.admin().flush("t");
      }
      Put put = new Put(row(i));
      int columns = 1 + random.nextInt(5);
      for (int c = 0; c < columns; c++) {
        byte[] value =
            new byte[random.nextInt(3) == 0 ? random.nextInt(20_000) : random.nextInt(200)];
        random.nextBytes(value);
        put.addColumn(c % 2 == 0 ? FAMILY : OTHER_FAMILY, qualifier(c), value);
      }
      table.put(put.setDurability(Durability.SKIP_WAL));
    }
  }

  private static List<String> describe(List<Cell> cells) {
    return cells.stream()
        .map(cell -> KeyValue.copyOf(cell).toString() + "=" + Arrays.hashCode(cell.valueArray()))
        .toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"l1/NONE", "l2/NONE", "l1/FAST_DIFF", "l2/ROW_INDEX_V1"})
  void aReusedReaderReturnsWhatGetReturnsOnEveryRow(String setup, TestSeed seed)
      throws IOException {
    String[] parts = setup.split("/");
    SplittableRandom random = new SplittableRandom(seed.value());
    try (Cellar cellar = Cellar.open(directory, config(parts[0]))) {
      cellar.admin().createTable(table(parts[1]));
      load(cellar, random);
      Table table = cellar.table("t");
      Get whole = new Get(row(0));
      Get oneColumn = new Get(row(0)).addColumn(FAMILY, qualifier(0));
      Get family = new Get(row(0)).addFamily(OTHER_FAMILY).readVersions(2);
      try (RowReader reader = table.rowReader()) {
        for (int n = 0; n < 3 * ROWS; n++) {
          int i = random.nextInt(ROWS + 10);
          Get get =
              switch (random.nextInt(3)) {
                case 0 -> whole;
                case 1 -> oneColumn;
                default -> family;
              };
          get.setRow(row(i));
          RowView view = reader.getView(get);
          try (Result result = table.get(get)) {
            String context = "row " + i;
            assertEquals(describe(result.rawCells()), describe(view.cells()), context);
            assertEquals(result.isEmpty(), view.isEmpty(), context);
            byte[] expected = result.getValue(FAMILY, qualifier(0));
            assertArrayEquals(expected, view.getValue(FAMILY, qualifier(0)), context);
            if (expected != null) {
              byte[] copy = new byte[expected.length + 3];
              assertEquals(expected.length, view.copyValue(FAMILY, qualifier(0), copy, 3));
              assertArrayEquals(expected, Arrays.copyOfRange(copy, 3, copy.length), context);
            } else {
              assertEquals(-1, view.valueLength(FAMILY, qualifier(0)), context);
            }
          }
        }
      }
    }
  }

  @Test
  void aClosedReaderAndAClosedResultRefuseAccess() throws IOException {
    try (Cellar cellar = Cellar.open(directory, config("l2"))) {
      cellar.admin().createTable(table("NONE"));
      load(cellar, new SplittableRandom(7));
      cellar.admin().flush("t");
      Table table = cellar.table("t");
      Get get = new Get(row(3));
      RowReader reader = table.rowReader();
      RowView view = reader.getView(get);
      assertTrue(view.size() > 0);
      reader.close();
      reader.close();
      assertThrows(IllegalStateException.class, view::size);
      assertThrows(IllegalStateException.class, () -> view.getValue(FAMILY, qualifier(0)));
      assertThrows(IllegalStateException.class, () -> reader.getView(get));

      Result result = table.get(get);
      assertTrue(result.pinnedBuffers() > 0);
      result.close();
      result.close();
      IllegalStateException closed =
          assertThrows(IllegalStateException.class, () -> result.getValue(FAMILY, qualifier(0)));
      assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
      assertThrows(IllegalStateException.class, result::rawCells);
      try (Result empty = table.get(new Get(bytes("no such row")))) {
        assertTrue(empty.isEmpty());
      }
      try (Result empty = table.get(new Get(bytes("no such row")))) {
        assertTrue(empty.isEmpty(), "the shared empty result stays usable after a close");
      }
    }
  }

  /**
   * Measured in a child JVM with leak detection at its production level (SIMPLE): the PARANOID
   * level every test JVM runs at records every retain and release. {@code l1-sampled} has the
   * miss-ratio curve sample every block, so each lookup also takes its locked path.
   */
  @ParameterizedTest
  @ValueSource(strings = {"l1", "l2", "memstore", "l1-sampled"})
  void aGetOfACachedRowAllocatesNothing(String where) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx512m",
            "-D" + dev.cellar.memory.LeakLevel.PROPERTY + "=SIMPLE",
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "-cp",
            System.getProperty("java.class.path"),
            GetAllocationProbe.class.getName(),
            directory.toString(),
            where);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), output);
    String line =
        output
            .lines()
            .filter(l -> l.startsWith("bytes per read "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no measurement in: " + output));
    double perRead = Double.parseDouble(line.substring("bytes per read ".length()));
    assertTrue(perRead <= 16, where + ": " + perRead + " heap bytes per read");
    String resultLine =
        output
            .lines()
            .filter(l -> l.startsWith("bytes per result read "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no Result measurement in: " + output));
    double perResult = Double.parseDouble(resultLine.substring("bytes per result read ".length()));
    // A block's cells stay where they are, pinned by the Result, and so do a MemStore's, pinned
    // through their MSLAB: no case copies the 1000-byte cell. The Get, the Result, its cell's view
    // and list, its guard and the guard's cleaner registration: 240 bytes (the target is 512).
    int budget = 256;
    assertTrue(
        perResult <= budget,
        where
            + ": Table.get with a new Get and Result took "
            + perResult
            + " heap bytes per read, more than the "
            + budget
            + " it takes (a Get, its"
            + " Result, the cell's view and list, the leak guard and its registration)");
  }

  @Test
  void aForgottenResultIsReleasedWhenCollected() throws Exception {
    try (Cellar cellar = Cellar.open(directory, config("l2"))) {
      cellar.admin().createTable(table("NONE"));
      load(cellar, new SplittableRandom(11));
      cellar.admin().flush("t");
      Table table = cellar.table("t");
      long leakedBefore = LeakGuard.leaked();
      forgetResults(table, 50);
      long deadline = System.nanoTime() + 10_000_000_000L;
      List<byte[]> pressure = new ArrayList<>();
      while (LeakGuard.leaked() < leakedBefore + 50 && System.nanoTime() < deadline) {
        pressure.add(new byte[1 << 16]);
        if (pressure.size() > 64) {
          pressure.clear();
        }
        System.gc();
        Thread.sleep(10);
      }
      assertTrue(
          LeakGuard.leaked() >= leakedBefore + 50,
          "forgotten results released: " + (LeakGuard.leaked() - leakedBefore));
    }
  }

  private static void forgetResults(Table table, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      Result result = table.get(new Get(row(i)));
      assertTrue(result.pinnedBuffers() > 0);
    }
  }

  @Test
  void aRowWithoutCellsReadsEmpty() throws IOException {
    try (Cellar cellar = Cellar.open(directory, config("l1"))) {
      cellar.admin().createTable(table("NONE"));
      try (RowReader reader = cellar.table("t").rowReader()) {
        RowView view = reader.getView(new Get(row(1)));
        assertTrue(view.isEmpty());
        assertNull(view.row());
        assertNull(view.getValue(FAMILY, qualifier(0)));
      }
    }
  }

  /**
   * A Result of MemStore cells keeps their chunks through a flush and the writes that follow it (no
   * copy was made, so only the pin keeps them from reuse) and gives them back once closed.
   */
  @Test
  void aMemStoreResultPinsItsChunksThroughAFlushUntilClosed() throws IOException {
    try (Cellar cellar = Cellar.open(directory, config("l1"))) {
      cellar.admin().createTable(table("NONE"));
      Table table = cellar.table("t");
      byte[] value = new byte[1000];
      Arrays.fill(value, (byte) 7);
      table.put(
          new Put(row(1))
              .addColumn(FAMILY, qualifier(0), value)
              .setDurability(Durability.SKIP_WAL));
      int inUseBefore = cellar.chunkPool().stats().inUseCount();
      try (Result result = table.get(new Get(row(1)))) {
        cellar.admin().flush("t");
        assertEquals(
            inUseBefore,
            cellar.chunkPool().stats().inUseCount(),
            "the flushed segment's chunk stays held by the result");
        byte[] other = new byte[1000];
        Arrays.fill(other, (byte) 9);
        for (int i = 2; i < 200; i++) {
          table.put(
              new Put(row(i))
                  .addColumn(FAMILY, qualifier(0), other)
                  .setDurability(Durability.SKIP_WAL));
        }
        assertArrayEquals(value, result.getValue(FAMILY, qualifier(0)));
      }
      try (Result result = table.get(new Get(row(1)))) {
        assertArrayEquals(value, result.getValue(FAMILY, qualifier(0)));
      }
      cellar.admin().flush("t");
      assertEquals(
          0,
          cellar.chunkPool().stats().inUseCount(),
          "every chunk is back once the results are closed and the MemStore flushed");
    }
  }
}
