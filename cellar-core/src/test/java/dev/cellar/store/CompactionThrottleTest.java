package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** HBase's pressure-aware compaction throughput limit, on a clock the test moves. */
class CompactionThrottleTest {

  private static final long KIB = 1024;

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);

  /** 1 MiB/s to 2 MiB/s, checked every 64 KiB, tuned every second. */
  private CompactionThrottle throttle() {
    return new CompactionThrottle(true, 1024 * KIB, 2048 * KIB, 1_000, 64 * KIB, 16, clock::get);
  }

  @Test
  void theLimitFollowsHBasesPressure() {
    CompactionThrottle throttle = throttle();
    assertEquals(0, throttle.pressure(3, 3));
    assertEquals(6.0 / 13, throttle.pressure(9, 3), 1e-9, "(9 - 3) / (16 - 3)");
    assertEquals(1024 * KIB, throttle.limit(0), 1e-6);
    assertEquals(1536 * KIB, throttle.limit(0.5), 1e-6);
    assertEquals(2048 * KIB, throttle.limit(1.0), 1e-6);
    assertEquals(Double.POSITIVE_INFINITY, throttle.limit(1.01), "past the blocking count");
  }

  @Test
  void aCompactionFasterThanItsShareSleepsTheDifference() throws InterruptedException {
    CompactionThrottle throttle = throttle();
    try (CompactionThrottle.Operation operation = throttle.start(() -> 0, () -> false)) {
      operation.wrote(32 * KIB);
      assertEquals(0, operation.sleptNanos(), "no check before 64 KiB");
      clock.addAndGet(20_000_000L);
      operation.wrote(32 * KIB);
      assertEquals(
          42_500_000L,
          operation.sleptNanos(),
          100_000L,
          "64 KiB at 1 MiB/s take 62.5 ms, 20 ms of which passed");
      clock.addAndGet(100_000_000L);
      operation.wrote(64 * KIB);
      assertEquals(42_500_000L, operation.sleptNanos(), 100_000L, "slower than the limit");
    }
  }

  @Test
  void runningCompactionsShareTheLimit() throws InterruptedException {
    CompactionThrottle throttle = throttle();
    try (CompactionThrottle.Operation first = throttle.start(() -> 0, () -> false);
        CompactionThrottle.Operation second = throttle.start(() -> 0, () -> false)) {
      first.wrote(64 * KIB);
      assertEquals(125_000_000L, first.sleptNanos(), 100_000L, "half of 1 MiB/s each");
      assertEquals(0, second.sleptNanos());
    }
  }

  @Test
  void theLimitIsTunedByPressureEveryPeriod() throws InterruptedException {
    CompactionThrottle throttle = throttle();
    double[] pressure = {2.0};
    try (CompactionThrottle.Operation operation = throttle.start(() -> pressure[0], () -> false)) {
      operation.wrote(64 * KIB);
      assertTrue(operation.sleptNanos() > 0, "the lower bound until the first tuning");
      long slept = operation.sleptNanos();
      clock.addAndGet(1_000_000_000L);
      operation.wrote(64 * KIB);
      operation.wrote(64 * KIB);
      assertEquals(slept, operation.sleptNanos(), "no limit past the blocking count");
    }
  }

  @Test
  void aClosingStoresCompactionRunsAtFullSpeed() throws InterruptedException {
    boolean[] closing = {false};
    try (CompactionThrottle.Operation operation = throttle().start(() -> 0, () -> closing[0])) {
      closing[0] = true;
      operation.wrote(64 * KIB);
      operation.wrote(64 * KIB);
      assertEquals(0, operation.sleptNanos());
    }
  }

  @Test
  void hbasesNoLimitControllerTurnsItOff() throws InterruptedException {
    CompactionThrottle throttle =
        CompactionThrottle.from(
            Settings.empty()
                .with(
                    CompactionThrottle.CONTROLLER_KEY,
                    "org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController")
                .with(CompactionThrottle.LOWER_BOUND_KEY, "1")
                .with(CompactionThrottle.HIGHER_BOUND_KEY, "2"));
    try (CompactionThrottle.Operation operation = throttle.start(() -> 0, () -> false)) {
      operation.wrote(1 << 20);
      assertEquals(0, operation.sleptNanos());
    }
  }

  @Test
  void badBoundsAreRejectedByName() {
    InvalidConfigException e =
        assertThrows(
            InvalidConfigException.class,
            () ->
                CompactionThrottle.from(
                    Settings.empty()
                        .with(CompactionThrottle.LOWER_BOUND_KEY, "200m")
                        .with(CompactionThrottle.HIGHER_BOUND_KEY, "100m")));
    assertTrue(e.getMessage().contains(CompactionThrottle.LOWER_BOUND_KEY), e.getMessage());
  }
}
