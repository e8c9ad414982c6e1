package dev.cellar.cli.experiments;

import dev.cellar.cli.pe.CacheFigures;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A run's block cache hit ratios per tier, as every experiment's report gives them: the L1's, the
 * L2's and the combined one. A single cache (no L2) is the L1, and its ratio is also the combined
 * one; a deploy without an L2 has none (null). A tier no lookup reached during the run has NaN,
 * which the report's files write as empty.
 */
public record TierHitRatios(Double l1, Double l2, Double combined) {

  /** The report columns, in the order of {@link #values()}, each name prefixed. */
  public static List<String> columns(String prefix) {
    return List.of(prefix + "L1", prefix + "L2", prefix + "Combined");
  }

  /**
   * From ratios by tier name: {@code L1}, {@code L2} and {@code combined} of two tiers, or one
   * single cache under any name.
   */
  public static TierHitRatios of(Map<String, Double> byTier) {
    if (byTier.containsKey("L2")) {
      return new TierHitRatios(byTier.get("L1"), byTier.get("L2"), byTier.get("combined"));
    }
    if (byTier.size() == 1) {
      Double single = byTier.values().iterator().next();
      return new TierHitRatios(single, null, single);
    }
    return new TierHitRatios(null, null, null);
  }

  /** The hit ratios of the lookups {@code figures} counted. */
  public static TierHitRatios of(CacheFigures figures) {
    return of(
        figures.tiers().stream()
            .collect(Collectors.toMap(CacheFigures.Tier::name, CacheFigures.Tier::hitRatio)));
  }

  /** L1, L2 and combined, for a report row (nulls kept). */
  public List<Object> values() {
    return Arrays.asList(l1, l2, combined);
  }

  /** For a progress line: "L1 0.998 L2 1.000 combined 0.999", or "L1 1.000" without an L2. */
  public String describe() {
    return l2 == null
        ? "L1 " + ratio(l1)
        : "L1 " + ratio(l1) + " L2 " + ratio(l2) + " combined " + ratio(combined);
  }

  private static String ratio(Double ratio) {
    return ratio == null || ratio.isNaN() ? "(no lookups)" : String.format("%.3f", ratio);
  }
}
