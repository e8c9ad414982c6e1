package dev.cellar.cli.experiments.showdown;

import dev.cellar.Database;
import dev.cellar.Table;
import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.util.Properties;
import site.ycsb.workloads.CoreWorkload;

/**
 * The read workloads a deploy runs: PE's randomRead; the off-heap seed's PE multi-gets of 100 rows
 * and range scans of 10,000 rows with every row filtered out on the server or with a tenth
 * returned; and its YCSB tests as YCSB's workloads run them ({@link YcsbRecords}): C's reads and
 * E's range scans, on the YCSB table.
 */
public enum ReadWorkload {
  RANDOM_READ("randomRead", false),
  MULTI_GET("multiGet100", false),
  SCAN_FILTER_ALL("scan10000FilterAll", false),
  SCAN_TENTH("scan10000Tenth", false),
  YCSB_READ("ycsbC", true),
  YCSB_SCAN("ycsbScan", true);

  public static final int SCAN_ROWS = 10_000;

  private final String command;
  private final boolean ycsb;

  ReadWorkload(String command, boolean ycsb) {
    this.command = command;
    this.ycsb = ycsb;
  }

  public String command() {
    return command;
  }

  /** True for the workloads on the YCSB table. */
  public boolean ycsb() {
    return ycsb;
  }

  public static ReadWorkload of(String command) {
    for (ReadWorkload workload : values()) {
      if (workload.command.equals(command)) {
        return workload;
      }
    }
    throw new IllegalArgumentException("unknown read workload " + command);
  }

  /**
   * The workers of one run with {@code threads} threads: on PE's {@code table} of {@code rows}
   * rows, or on the YCSB table of {@code records} records of {@code database}.
   */
  Worker.Factory workers(
      Database database, Table table, long rows, long records, int threads, long seed)
      throws IOException {
    if (ycsb) {
      Properties properties = YcsbRecords.properties(this == YCSB_READ ? "c" : "e", records);
      CoreWorkload workload = YcsbRecords.workload(properties);
      return thread -> new YcsbOperations(workload, properties, database, thread, threads, false);
    }
    return thread ->
        switch (this) {
          case RANDOM_READ -> new RowGets(table, rows, seed + thread);
          case MULTI_GET -> new MultiGets(table, rows, seed + thread);
          case SCAN_FILTER_ALL -> new RangeScans(table, rows, false, seed + thread);
          case SCAN_TENTH -> new RangeScans(table, rows, true, seed + thread);
          default -> throw new IllegalStateException(command + " is a YCSB workload");
        };
  }
}
