package dev.cellar.cli.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AllotmentTest {

  private static final long MIB = 1L << 20;

  @Test
  void aScaleBelowTheLeastRaisesTheAllotmentAndSaysSo() {
    Allotment allotment = Allotment.of("1280m", 0.01, 16 * MIB, "the least");
    assertEquals(16 * MIB, allotment.bytes());
    assertTrue(allotment.raised());
    assertEquals(
        "16 MiB (--memory 1,280 MiB x --scale 0.01 is 12.8 MiB, raised to the least"
            + " this experiment runs with)",
        allotment.describe());
    assertEquals(2, allotment.smokeReasons().size(), allotment.smokeReasons().toString());
  }

  @Test
  void aGivenMemoryBelowTheLeastIsRefusedNamingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Allotment.of("8m", 1, 16 * MIB, "what needs it"));
    assertEquals("--memory must be at least 16m (what needs it), was 8m", e.getMessage());
  }

  @Test
  void theDefaultMemoryIsNeverRefused() {
    Allotment allotment = Allotment.of(null, 0.0001, 40 * MIB, "the least");
    assertEquals(40 * MIB, allotment.bytes());
    assertTrue(allotment.describe().contains("--memory default"), allotment.describe());
  }

  @Test
  void aFullScaleRunIsNoSmokeRun() {
    Allotment allotment = Allotment.of("1g", 1, 16 * MIB, "the least");
    assertEquals(1L << 30, allotment.bytes());
    assertFalse(allotment.raised());
    assertEquals(List.of(), allotment.smokeReasons());
    assertEquals("1,024 MiB (--memory 1,024 MiB)", allotment.describe());
  }
}
