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
 * Run in a child JVM by {@link RowScannerTest}: writes 20,000 rows, flushed (read from the L1 or
 * the offheap L2) or not (read from the MemStore), of one 1000-byte value ({@code l1}, {@code l2},
 * {@code memstore}) or ten 100-byte values ({@code l1-columns}); scans the table through a {@link
 * RowScanner} until steady state, copying every row key and value out, then prints the heap bytes
 * per row of the next scans (the scanners' own setup included).
 *
 * <p>Arguments: a directory, then where the rows are read from.
 */
final class ScanAllocationProbe {

  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.US_ASCII);
  private static final int ROWS = 20_000;

  private ScanAllocationProbe() {}

  public static void main(String[] args) throws Exception {
    String where = args[1];
    boolean columns = where.endsWith("-columns");
    CellarConfig config = CellarConfig.defaults().with("hfile.block.cache.memory.size", "64m");
    if (where.equals("l2")) {
      config =
          config.with("hbase.bucketcache.ioengine", "offheap").with("hbase.bucketcache.size", "64");
    }
    try (Cellar cellar = Cellar.open(Path.of(args[0]), config)) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "16384"))));
      Table table = cellar.table("t");
      int valueSize = columns ? 100 : 1000;
      for (int i = 0; i < ROWS; i++) {
        Put put = new Put(String.format("row-%08d", i).getBytes(StandardCharsets.US_ASCII));
        for (int c = 0; c < (columns ? 10 : 1); c++) {
          put.addColumn(FAMILY, ("q" + c).getBytes(StandardCharsets.US_ASCII), new byte[valueSize]);
        }
        table.put(put.setDurability(Durability.SKIP_WAL));
      }
      if (!where.equals("memstore")) {
        cellar.admin().flush("t");
      }
      byte[] key = new byte[64];
      byte[] value = new byte[valueSize];
      com.sun.management.ThreadMXBean threads =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      for (int round = 0; round < 20; round++) {
        scan(table, key, value);
      }
      int scans = 10;
      long before = threads.getCurrentThreadAllocatedBytes();
      long rows = 0;
      for (int round = 0; round < scans; round++) {
        rows += scan(table, key, value);
      }
      double perRow = (threads.getCurrentThreadAllocatedBytes() - before) / (double) rows;
      System.out.println("bytes per row " + perRow);
    }
  }

  /** Scans the whole table, copying each row key and value out; returns the rows read. */
  private static long scan(Table table, byte[] key, byte[] value) throws Exception {
    long rows = 0;
    try (RowScanner scanner = table.rowScanner(new Scan())) {
      for (RowView row = scanner.nextView(); row != null; row = scanner.nextView()) {
        row.copyRow(key, 0);
        for (int i = 0; i < row.size(); i++) {
          Cell cell = row.cell(i);
          MemorySegment.copy(
              cell.valueSegment(),
              ValueLayout.JAVA_BYTE,
              cell.valueOffset(),
              value,
              0,
              cell.valueLength());
        }
        rows++;
      }
    }
    if (rows != ROWS) {
      throw new IllegalStateException("scanned " + rows + " rows, not " + ROWS);
    }
    return rows;
  }
}
