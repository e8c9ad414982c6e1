package dev.cellar.cli.shell;

import dev.cellar.Get;
import dev.cellar.Scan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The options hash of {@code get} and {@code scan} as HBase's shell reads it: {@code COLUMN} or
 * {@code COLUMNS} (one {@code 'f'} or {@code 'f:q'}, or an array), {@code VERSIONS}, {@code
 * TIMERANGE => [min, max)}, {@code TIMESTAMP} (one exact timestamp), {@code FILTER} (HBase's filter
 * language, see {@link FilterParser}), and for scans {@code STARTROW}, {@code STOPROW}, {@code
 * LIMIT}, {@code REVERSED} and {@code CACHE}. An unknown key is refused, naming it.
 */
final class ReadOptions {

  private static final Set<String> GET_KEYS =
      Set.of("COLUMN", "COLUMNS", "VERSIONS", "TIMERANGE", "TIMESTAMP", "FILTER");
  private static final Set<String> SCAN_KEYS =
      Set.of(
          "COLUMN",
          "COLUMNS",
          "VERSIONS",
          "TIMERANGE",
          "TIMESTAMP",
          "FILTER",
          "STARTROW",
          "STOPROW",
          "LIMIT",
          "REVERSED",
          "CACHE");

  final List<String> columns = new ArrayList<>();
  private Integer versions;
  private long[] timeRange;
  private FilterParser.Parsed filter;
  private String startRow;
  private String stopRow;
  private Long limit;
  private boolean reversed;
  private Integer caching;

  private ReadOptions() {}

  static ReadOptions of(String command, Map<?, ?> hash) {
    Set<String> allowed = command.equals("get") ? GET_KEYS : SCAN_KEYS;
    ReadOptions options = new ReadOptions();
    for (Map.Entry<?, ?> entry : hash.entrySet()) {
      String key = String.valueOf(entry.getKey());
      Object value = entry.getValue();
      if (!allowed.contains(key)) {
        throw new ShellException(
            command
                + ": unknown option "
                + key
                + "; "
                + command
                + " takes "
                + String.join(", ", new java.util.TreeSet<>(allowed)));
      }
      switch (key) {
        case "COLUMN", "COLUMNS" -> {
          if (value instanceof List<?> list) {
            list.forEach(c -> options.columns.add(String.valueOf(c)));
          } else {
            options.columns.add(String.valueOf(value));
          }
        }
        case "VERSIONS" -> options.versions = (int) number(command, key, value);
        case "TIMERANGE" -> {
          if (!(value instanceof List<?> range) || range.size() != 2) {
            throw new ShellException(command + ": TIMERANGE takes [min, max]");
          }
          options.timeRange =
              new long[] {number(command, key, range.get(0)), number(command, key, range.get(1))};
        }
        case "TIMESTAMP" -> {
          long ts = number(command, key, value);
          options.timeRange = new long[] {ts, ts + 1};
        }
        case "FILTER" -> options.filter = FilterParser.parse(String.valueOf(value));
        case "STARTROW" -> options.startRow = String.valueOf(value);
        case "STOPROW" -> options.stopRow = String.valueOf(value);
        case "LIMIT" -> options.limit = number(command, key, value);
        case "REVERSED" -> options.reversed = Boolean.TRUE.equals(value);
        case "CACHE" -> options.caching = (int) number(command, key, value);
        default -> throw new IllegalStateException(key);
      }
    }
    return options;
  }

  private static long number(String command, String key, Object value) {
    if (value instanceof Long number) {
      return number;
    }
    throw new ShellException(command + ": " + key + " takes a number, not '" + value + "'");
  }

  /** How the cells read are to be shown: without their values after a KeyOnlyFilter. */
  ShellOutput.Values values() {
    return filter == null ? ShellOutput.Values.SHOWN : filter.values();
  }

  void applyTo(Get get) {
    if (versions != null) {
      get.readVersions(versions);
    }
    if (timeRange != null) {
      get.setTimeRange(timeRange[0], timeRange[1]);
    }
    if (filter != null) {
      get.setFilter(filter.filter());
    }
  }

  void applyTo(Scan scan) {
    if (versions != null) {
      scan.readVersions(versions);
    }
    if (timeRange != null) {
      scan.setTimeRange(timeRange[0], timeRange[1]);
    }
    if (filter != null) {
      scan.setFilter(filter.filter());
    }
    if (startRow != null) {
      scan.withStartRow(ShellBytes.of(startRow));
    }
    if (stopRow != null) {
      scan.withStopRow(ShellBytes.of(stopRow));
    }
    if (limit != null) {
      scan.setLimit(limit);
    }
    if (caching != null) {
      scan.setCaching(caching);
    }
    scan.setReversed(reversed);
  }
}
