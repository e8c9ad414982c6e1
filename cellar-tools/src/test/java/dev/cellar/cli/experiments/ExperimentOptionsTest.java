package dev.cellar.cli.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExperimentOptionsTest {

  private static ExperimentOptions at(double scale) {
    ExperimentOptions options = new ExperimentOptions();
    options.scale = scale;
    return options;
  }

  @Test
  void aSmokeRunsDefaultRunsShrinkWithTheScale() {
    assertEquals(10_000, at(1).runMillis("--run-seconds", null, 10));
    assertEquals(10_000, at(2).runMillis("--run-seconds", null, 10), "not lengthened above 1");
    assertEquals(5_000, at(0.5).runMillis("--run-seconds", null, 10));
    assertEquals(500, at(0.01).runMillis("--run-seconds", null, 10), "at least half a second");
    assertEquals(300, at(0.01).runMillis("--run-seconds", 0.3, 10), "a given length is kept");
  }

  @Test
  void aRunLengthNotAboveZeroIsRefusedNamingTheOption() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> at(1).runMillis("--run-seconds", 0.0, 10));
    assertTrue(e.getMessage().startsWith("--run-seconds must be"), e.getMessage());
  }
}
