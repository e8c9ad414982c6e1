package dev.cellar.cli.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cli.pe.CacheFigures;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TierHitRatiosTest {

  @Test
  void aSingleCacheIsTheL1AndHasNoL2() {
    TierHitRatios ratios = TierHitRatios.of(Map.of("LruBlockCache", 0.75));
    assertEquals(Arrays.asList(0.75, null, 0.75), ratios.values());
    assertEquals("L1 0.750", ratios.describe());
  }

  @Test
  void twoTiersKeepEachTiersRatio() {
    TierHitRatios ratios =
        TierHitRatios.of(
            new CacheFigures(
                List.of(
                    new CacheFigures.Tier("L1", 9, 1, 0, 1, 1),
                    new CacheFigures.Tier("L2", 0, 0, 0, 1, 1),
                    new CacheFigures.Tier("combined", 9, 1, 0, 2, 2))));
    assertEquals(0.9, ratios.l1());
    assertEquals(Double.NaN, ratios.l2(), "a tier without lookups");
    assertEquals("L1 0.900 L2 (no lookups) combined 0.900", ratios.describe());
    assertEquals(
        List.of("hitRatioL1", "hitRatioL2", "hitRatioCombined"), TierHitRatios.columns("hitRatio"));
  }
}
