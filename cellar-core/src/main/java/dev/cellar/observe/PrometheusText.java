package dev.cellar.observe;

import java.util.List;

/**
 * The numeric figures of the sources in Prometheus's text exposition format (version 0.0.4), named
 * as HBase's {@code /prometheus} names them: the record name and the metric name run together, cut
 * into words (before a capital that follows a lower-case letter or a digit, before the last capital
 * of a run of capitals followed by a lower-case letter, and at every character that is not a letter
 * or digit), joined by underscores and lower-cased; {@code Server} + {@code Get_99th_percentile}
 * gives {@code server_get_99th_percentile}, {@code CellarBlockCache} + {@code
 * bucketSizeClass5120UsedSlots} gives {@code cellar_block_cache_bucket_size_class5120_used_slots}.
 * Each sample carries the source's {@code context} and the {@code hostname}. Text figures are left
 * out. {@code qry} keeps only the names containing it; {@code description} adds a {@code # HELP}
 * line before each.
 */
public final class PrometheusText {

  private PrometheusText() {}

  public static String render(
      List<MetricSource> sources, String hostname, String qry, boolean description) {
    StringBuilder out = new StringBuilder();
    for (MetricSource source : sources) {
      String labels =
          "{context=\"" + escape(source.context()) + "\",hostname=\"" + escape(hostname) + "\"}";
      for (Metric metric : source.read()) {
        if (metric.kind() == Metric.Kind.TEXT) {
          continue;
        }
        String name = name(source.recordName(), metric.name());
        if (qry != null && !name.contains(qry)) {
          continue;
        }
        if (description && !metric.description().isEmpty()) {
          out.append("# HELP ")
              .append(name)
              .append(' ')
              .append(metric.description().replace("\\", "\\\\").replace("\n", "\\n"))
              .append('\n');
        }
        out.append("# TYPE ")
            .append(name)
            .append(' ')
            .append(metric.kind() == Metric.Kind.COUNTER ? "counter" : "gauge")
            .append('\n');
        out.append(name).append(labels).append(' ').append(format(metric.value())).append('\n');
      }
    }
    return out.toString();
  }

  /** HBase's Prometheus name of {@code metric} in the record {@code record}. */
  static String name(String record, String metric) {
    String joined =
        record
            + (metric.isEmpty()
                ? ""
                : Character.toUpperCase(metric.charAt(0)) + metric.substring(1));
    StringBuilder out = new StringBuilder();
    boolean pendingSeparator = false;
    for (int i = 0; i < joined.length(); i++) {
      char c = joined.charAt(i);
      if (!Character.isLetterOrDigit(c)) {
        pendingSeparator = out.length() > 0;
        continue;
      }
      if (i > 0 && Character.isUpperCase(c) && out.length() > 0) {
        char before = joined.charAt(i - 1);
        boolean nextLower = i + 1 < joined.length() && Character.isLowerCase(joined.charAt(i + 1));
        if (Character.isLowerCase(before)
            || Character.isDigit(before)
            || (Character.isUpperCase(before) && nextLower)) {
          pendingSeparator = true;
        }
      }
      if (pendingSeparator) {
        out.append('_');
        pendingSeparator = false;
      }
      out.append(Character.toLowerCase(c));
    }
    return out.toString();
  }

  private static String format(Object value) {
    if (value instanceof Double d) {
      if (d.isNaN()) {
        return "NaN";
      }
      if (d.isInfinite()) {
        return d > 0 ? "+Inf" : "-Inf";
      }
    }
    return String.valueOf(value);
  }

  private static String escape(String label) {
    return label.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
