package dev.cellar.cli.experiments.showdown;

import dev.cellar.Table;
import dev.cellar.cli.pe.Worker;

/**
 * The read workloads a child JVM runs: PE's randomRead, and the off-heap seed's range scans of
 * 10,000 rows with every row filtered out on the server or with one row in ten returned.
 */
public enum ReadWorkload {
  RANDOM_READ("randomRead"),
  SCAN_FILTER_ALL("scan10000FilterAll"),
  SCAN_TENTH("scan10000Tenth");

  public static final int SCAN_ROWS = 10_000;

  private final String command;

  ReadWorkload(String command) {
    this.command = command;
  }

  public String command() {
    return command;
  }

  public static ReadWorkload of(String command) {
    for (ReadWorkload workload : values()) {
      if (workload.command.equals(command)) {
        return workload;
      }
    }
    throw new IllegalArgumentException("unknown read workload " + command);
  }

  Worker worker(Table table, long rows, long seed) {
    return switch (this) {
      case RANDOM_READ -> new RowGets(table, rows, seed);
      case SCAN_FILTER_ALL -> new RangeScans(table, rows, false, seed);
      case SCAN_TENTH -> new RangeScans(table, rows, true, seed);
    };
  }
}
