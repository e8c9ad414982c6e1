package dev.cellar.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Collections the JVM reports end up in the pause histogram; long ones pass the thresholds. */
class GcPauseMonitorTest {

  @Test
  void aCollectionIsRecordedAsAPause() throws InterruptedException {
    EngineMetrics metrics = new EngineMetrics();
    try (GcPauseMonitor monitor = GcPauseMonitor.start(metrics)) {
      System.gc();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (metrics.snapshot(Operation.GC_PAUSE).count() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(
          metrics.snapshot(Operation.GC_PAUSE).count() >= 1,
          "no pause recorded within 10 s of System.gc()");
    }
  }

  @Test
  void longPausesPassTheThresholds() {
    EngineMetrics metrics = new EngineMetrics();
    try (GcPauseMonitor monitor = GcPauseMonitor.start(metrics)) {
      monitor.recordPause(5);
      monitor.recordPause(1_500);
      monitor.recordPause(12_000);
    }
    assertEquals(2, metrics.count(Counter.PAUSE_INFO_THRESHOLD));
    assertEquals(1, metrics.count(Counter.PAUSE_WARN_THRESHOLD));
    assertTrue(metrics.snapshot(Operation.GC_PAUSE).count() >= 3);
  }

  @Test
  void concurrentCyclesAreNotPauses() {
    assertFalse(GcPauseMonitor.isPause("ZGC Major Cycles"));
    assertTrue(GcPauseMonitor.isPause("ZGC Major Pauses"));
    assertTrue(GcPauseMonitor.isPause("G1 Young Generation"));
  }
}
