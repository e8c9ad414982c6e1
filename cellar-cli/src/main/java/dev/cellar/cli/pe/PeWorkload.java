package dev.cellar.cli.pe;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The commands of {@code cellar pe}, under HBase PerformanceEvaluation's names, and what one
 * operation of each does (see {@link PeOperations}).
 */
public enum PeWorkload {
  SEQUENTIAL_WRITE("sequentialWrite", "write rows start..start+rows-1 of each thread, one put each"),
  RANDOM_WRITE("randomWrite", "put rows chosen uniformly among all rows"),
  RANDOM_READ("randomRead", "get rows chosen uniformly among all rows (--multiGet to batch)"),
  SEQUENTIAL_READ("sequentialRead", "get rows start..start+rows-1 of each thread"),
  SCAN("scan", "one scan per thread from its first row, one row per operation"),
  SCAN_RANGE_10("scanRange10", "scan a random range of at most 10 rows per operation"),
  SCAN_RANGE_100("scanRange100", "scan a random range of at most 100 rows per operation"),
  SCAN_RANGE_1000("scanRange1000", "scan a random range of at most 1000 rows per operation"),
  SCAN_RANGE_10000("scanRange10000", "scan a random range of at most 10000 rows per operation"),
  FILTER_SCAN("filterScan", "scan the whole table for a random value (SingleColumnValueFilter)"),
  RANDOM_SEEK_SCAN("randomSeekScan", "scan 120 rows from a random row (PageFilter)");

  private final String command;
  private final String description;

  PeWorkload(String command, String description) {
    this.command = command;
    this.description = description;
  }

  public String command() {
    return command;
  }

  public String description() {
    return description;
  }

  public boolean writes() {
    return this == SEQUENTIAL_WRITE || this == RANDOM_WRITE;
  }

  /** The most rows one operation of a range scan reads, 0 for other workloads. */
  int scanRange() {
    return switch (this) {
      case SCAN_RANGE_10 -> 10;
      case SCAN_RANGE_100 -> 100;
      case SCAN_RANGE_1000 -> 1000;
      case SCAN_RANGE_10000 -> 10000;
      default -> 0;
    };
  }

  /** The workload named {@code command} (case-insensitive). */
  public static PeWorkload of(String command) {
    for (PeWorkload workload : values()) {
      if (workload.command.toLowerCase(Locale.ROOT).equals(command.toLowerCase(Locale.ROOT))) {
        return workload;
      }
    }
    throw new IllegalArgumentException("unknown command '" + command + "'; commands: " + names());
  }

  static String names() {
    return Arrays.stream(values()).map(PeWorkload::command).collect(Collectors.joining(", "));
  }
}
