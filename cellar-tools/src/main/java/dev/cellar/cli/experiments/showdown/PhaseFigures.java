package dev.cellar.cli.experiments.showdown;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * What a child JVM measured of one phase, read back from its result file (the keys {@link
 * ShowdownChild} writes, under the phase's prefix).
 *
 * @param rowsPerOperation rows returned per operation (1 for a Get that found its row)
 * @param hitRatios each block cache tier's hit ratio during the run, by tier name
 * @param loadAverage the machine's one-minute load average when the run ended
 */
public record PhaseFigures(
    double opsPerSecond,
    double rowsPerOperation,
    double p50Micros,
    double p99Micros,
    double p999Micros,
    long gcMillis,
    Map<String, Double> hitRatios,
    double loadAverage) {

  /** What the load column says, for a report's notes. */
  public static final String LOAD_NOTE =
      "loadAverage1m is the machine's one-minute load"
          + " average when the run ended. The deploys run one after the other, so a deploy measured"
          + " while other work loaded the machine comes out slower without a fault of its own: on a"
          + " shared 2-core machine at loads of 5 to 8, the same run repeated gave one deploy 0.1 to"
          + " 5 times the other's throughput. Compare deploys measured at similar loads.";

  public static PhaseFigures of(Properties result, String prefix) {
    Map<String, Double> hits = new LinkedHashMap<>();
    for (String tier : result.getProperty(prefix + "tiers", "").split(",")) {
      if (!tier.isEmpty()) {
        hits.put(tier, number(result, prefix + "tier." + tier + ".hitRatio"));
      }
    }
    double operations = number(result, prefix + "operations");
    return new PhaseFigures(
        number(result, prefix + "opsPerSecond"),
        operations == 0 ? 0 : number(result, prefix + "rows") / operations,
        number(result, prefix + "p50Micros"),
        number(result, prefix + "p99Micros"),
        number(result, prefix + "p999Micros"),
        (long) number(result, prefix + "gcMillis"),
        hits,
        number(result, prefix + "loadAverage"));
  }

  private static double number(Properties result, String key) {
    String value = result.getProperty(key);
    if (value == null) {
      throw new IllegalStateException("the child's result has no " + key);
    }
    return Double.parseDouble(value);
  }
}
