package dev.cellar.cli.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Rounds of one phase combined into one measurement. */
class RunMeasurementTest {

  @Test
  void combinedRoundsAddUpAndMergeLatencies() {
    RunMeasurement first = measurement(100, 1_000_000_000L, 1_000, 2, 10);
    RunMeasurement second = measurement(300, 3_000_000_000L, 5_000, 1, 30);
    RunMeasurement both = RunMeasurement.combined("both", List.of(first, second));
    assertEquals(400, both.operations());
    assertEquals(400, both.rows());
    assertEquals(4_000_000_000L, both.elapsedNanos());
    assertEquals(100.0, both.opsPerSecond(), 1e-9);
    assertEquals(6_000, both.allocatedBytes());
    assertEquals(3, both.gc().totalCount());
    assertEquals(40, both.gc().totalMillis());
    assertEquals(400, both.latency().getTotalCount());
    assertEquals(2, both.threads());
    assertEquals(200, both.perThread().get(0).operations());
    assertEquals(200, both.perThread().get(0).latency().getTotalCount());
    assertEquals(100, first.latency().getTotalCount(), "the rounds themselves stay as they were");
  }

  @Test
  void roundsOfOtherThreadCountsAreRefused() {
    RunMeasurement two = measurement(10, 1, 0, 0, 0);
    RunMeasurement one =
        new RunMeasurement(
            "one",
            1,
            1,
            1,
            List.of(new RunMeasurement.ThreadFigures(1, 1, histogram(1))),
            histogram(1),
            0,
            gc(0, 0));
    assertThrows(
        IllegalArgumentException.class, () -> RunMeasurement.combined("mixed", List.of(two, one)));
  }

  private static RunMeasurement measurement(
      long ops, long nanos, long allocated, long gcs, long gcMillis) {
    List<RunMeasurement.ThreadFigures> threads =
        List.of(
            new RunMeasurement.ThreadFigures(ops / 2, nanos, histogram(ops / 2)),
            new RunMeasurement.ThreadFigures(ops / 2, nanos, histogram(ops / 2)));
    return new RunMeasurement(
        "round", ops, ops, nanos, threads, histogram(ops), allocated, gc(gcs, gcMillis));
  }

  private static GcFigures gc(long count, long millis) {
    return new GcFigures(
        Map.of("G1 Young Generation", count), Map.of("G1 Young Generation", millis));
  }

  private static Histogram histogram(long values) {
    Histogram histogram = new Histogram(3);
    for (long i = 1; i <= values; i++) {
      histogram.recordValue(1_000 * i);
    }
    return histogram;
  }
}
