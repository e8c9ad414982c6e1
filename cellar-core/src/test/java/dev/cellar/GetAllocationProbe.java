package dev.cellar;

import dev.cellar.cell.Cell;
import dev.cellar.schema.Durability;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Run in a child JVM by {@link RowReaderTest}: writes 300 rows of one 1000-byte value, flushed (the
 * row is read from the L1 or the offheap L2) or not (read from the MemStore), reads every row many
 * times through one {@link RowReader} to reach steady state, then prints the heap bytes per read of
 * the next reads.
 *
 * <p>Arguments: a directory, then {@code l1}, {@code l2} or {@code memstore}; {@code l1-sampled}
 * reads from the L1 with the miss-ratio curve sampling every block, so that every lookup takes the
 * tracker's sampled path.
 */
final class GetAllocationProbe {

  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.US_ASCII);
  private static final int ROWS = 300;

  private GetAllocationProbe() {}

  private static byte[] row(int i) {
    return String.format("row-%05d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** HBase's way: a new Get, a Result, its value copied out, the Result closed. */
  private static void readResult(Table table, byte[] row, byte[] copy) throws Exception {
    try (Result result = table.get(new Get(row).addColumn(FAMILY, QUALIFIER))) {
      if (result.size() != 1) {
        throw new IllegalStateException(
            "row " + new String(row, StandardCharsets.US_ASCII) + " read wrong");
      }
      Cell cell = result.latestCell(FAMILY, QUALIFIER);
      MemorySegment.copy(
          cell.valueSegment(),
          ValueLayout.JAVA_BYTE,
          cell.valueOffset(),
          copy,
          0,
          cell.valueLength());
    }
  }

  public static void main(String[] args) throws Exception {
    boolean sampled = args[1].endsWith("-sampled");
    String where = sampled ? args[1].substring(0, args[1].length() - "-sampled".length()) : args[1];
    CellarConfig config =
        CellarConfig.defaults()
            .with("hfile.block.cache.memory.size", "16m")
            .with(dev.cellar.cache.MissRatioCurveTracker.RATE_KEY, sampled ? "1" : "0.01");
    if (where.equals("l2")) {
      config =
          config.with("hbase.bucketcache.ioengine", "offheap").with("hbase.bucketcache.size", "64");
    }
    try (Cellar cellar = Cellar.open(Path.of(args[0]), config)) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of("t", ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "4096"))));
      Table table = cellar.table("t");
      byte[] value = new byte[1000];
      for (int i = 0; i < ROWS; i++) {
        table.put(
            new Put(row(i)).addColumn(FAMILY, QUALIFIER, value).setDurability(Durability.SKIP_WAL));
      }
      if (!where.equals("memstore")) {
        cellar.admin().flush("t");
      }
      byte[][] rows = new byte[ROWS][];
      for (int i = 0; i < ROWS; i++) {
        rows[i] = row(i);
      }
      Get get = new Get(row(0)).addColumn(FAMILY, QUALIFIER);
      byte[] copy = new byte[value.length];
      com.sun.management.ThreadMXBean threads =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      try (RowReader reader = table.rowReader()) {
        for (int n = 0; n < 200_000; n++) {
          reader.getView(get.setRow(rows[n % ROWS]));
        }
        int reads = 50_000;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int n = 0; n < reads; n++) {
          RowView view = reader.getView(get.setRow(rows[n % ROWS]));
          if (view.copyValue(FAMILY, QUALIFIER, copy, 0) != value.length) {
            throw new IllegalStateException("row " + (n % ROWS) + " read wrong");
          }
        }
        double perRead = (threads.getCurrentThreadAllocatedBytes() - before) / (double) reads;
        System.out.println("bytes per read " + perRead);
      }
      for (int n = 0; n < 200_000; n++) {
        readResult(table, rows[n % ROWS], copy);
      }
      int reads = 50_000;
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int n = 0; n < reads; n++) {
        readResult(table, rows[n % ROWS], copy);
      }
      double perRead = (threads.getCurrentThreadAllocatedBytes() - before) / (double) reads;
      System.out.println("bytes per result read " + perRead);
    }
  }
}
