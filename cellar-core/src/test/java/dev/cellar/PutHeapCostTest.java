package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heap bytes a write allocates on the writing thread for 1000-byte values with {@code SYNC_WAL},
 * one put at a time and in batches of 100 ({@code Table.put(List)}): building the Put (its own copy
 * of the value, which is the caller's) and, apart, what writing it adds. The write path copies the
 * value only into the MemStore's off-heap chunks and the log's off-heap staging buffer, so what it
 * adds is a small fraction of a value. Each figure is the least of three phases: a one-off growth
 * on the thread (a buffer sized up once) is not a per-put cost.
 */
class PutHeapCostTest {

  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.US_ASCII);
  private static final int VALUE_SIZE = 1000;
  private static final int ROWS_PER_PHASE = 20_000;
  private static final int BATCH = 100;

  /** Row keys made before measuring, so that only the puts are counted. */
  private static final byte[][] ROWS = new byte[8 * ROWS_PER_PHASE][];

  static {
    for (int i = 0; i < ROWS.length; i++) {
      ROWS[i] = String.format("%026d", i).getBytes(StandardCharsets.US_ASCII);
    }
  }

  @TempDir Path directory;

  @Test
  void writingAPutAddsAFractionOfItsValue() throws IOException {
    byte[] value = new byte[VALUE_SIZE];
    Arrays.fill(value, (byte) 'v');
    Put[] built = new Put[BATCH];
    buildOnly(built, value);
    double building = bytesPerRow(() -> buildOnly(built, value));
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      writeSingly(table, 0, value);
      double single = Double.MAX_VALUE;
      for (int phase = 1; phase <= 3; phase++) {
        int first = phase * ROWS_PER_PHASE;
        single = Math.min(single, bytesPerRow(() -> writeSingly(table, first, value)) - building);
      }
      writeBatches(table, 4 * ROWS_PER_PHASE, value);
      double batched = Double.MAX_VALUE;
      for (int phase = 5; phase <= 7; phase++) {
        int first = phase * ROWS_PER_PHASE;
        batched =
            Math.min(batched, bytesPerRow(() -> writeBatches(table, first, value)) - building);
      }
      System.out.printf(
          "heap bytes per put of a %d-byte value: %.0f to build the Put, then to"
              + " write it %.0f one at a time, %.0f in batches of %d%n",
          VALUE_SIZE, building, single, batched, BATCH);
      // The write path's budget is a value's size per put; alone in a JVM a put adds about 240
      // bytes, after the whole suite has shaped the JIT's profiles about 540.
      assertTrue(single < VALUE_SIZE, "one put at a time: " + single + " B/put");
      assertTrue(batched < VALUE_SIZE / 4.0, "batches of " + BATCH + ": " + batched + " B/put");
    }
  }

  private interface Work {
    void run() throws IOException;
  }

  private static double bytesPerRow(Work work) throws IOException {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    work.run();
    return (double) (threads.getCurrentThreadAllocatedBytes() - before) / ROWS_PER_PHASE;
  }

  private static void buildOnly(Put[] built, byte[] value) {
    for (int i = 0; i < ROWS_PER_PHASE; i++) {
      built[i % BATCH] = new Put(ROWS[4 * ROWS_PER_PHASE + i]).addColumn(FAMILY, QUALIFIER, value);
    }
  }

  private static void writeSingly(Table table, int first, byte[] value) throws IOException {
    for (int i = first; i < first + ROWS_PER_PHASE; i++) {
      table.put(new Put(ROWS[i]).addColumn(FAMILY, QUALIFIER, value));
    }
  }

  private static void writeBatches(Table table, int first, byte[] value) throws IOException {
    List<Put> batch = new ArrayList<>(BATCH);
    for (int i = first; i < first + ROWS_PER_PHASE; i += BATCH) {
      batch.clear();
      for (int r = i; r < i + BATCH; r++) {
        batch.add(new Put(ROWS[r]).addColumn(FAMILY, QUALIFIER, value));
      }
      table.put(batch);
    }
  }
}
