package dev.cellar.cli.pe;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The commands of {@code cellar pe}, under HBase PerformanceEvaluation's names. What one operation
 * of each does is in the worker that runs it: {@link PeWrites}, {@link PeGets}, {@link PeScan} and
 * {@link PeRangeScans}.
 */
public enum PeWorkload {
  SEQUENTIAL_WRITE("sequentialWrite"),
  RANDOM_WRITE("randomWrite"),
  RANDOM_READ("randomRead"),
  SEQUENTIAL_READ("sequentialRead"),
  SCAN("scan"),
  SCAN_RANGE_10("scanRange10"),
  SCAN_RANGE_100("scanRange100"),
  SCAN_RANGE_1000("scanRange1000"),
  SCAN_RANGE_10000("scanRange10000"),
  FILTER_SCAN("filterScan"),
  RANDOM_SEEK_SCAN("randomSeekScan");

  private final String command;

  PeWorkload(String command) {
    this.command = command;
  }

  public String command() {
    return command;
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
