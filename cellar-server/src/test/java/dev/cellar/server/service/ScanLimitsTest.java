package dev.cellar.server.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.junit.jupiter.api.Test;

/**
 * {@link ScanLimits}: a Scan call's time limit is half of the shorter of the lease and what is left
 * of the call's timeout, never below the minimum, as HBase's region server computes it; only
 * clients that take heartbeats and partial results are limited by time.
 */
class ScanLimitsTest {

  private static final long MS = 1_000_000;
  private static final long NOW = 5_000 * MS;

  @Test
  void theTimeLimitIsHalfTheShorterOfTheLeaseAndTheCallsTimeout() {
    ScanLimits limits = new ScanLimits(60_000, 20_000, 1 << 20, 10, true);
    assertEquals(NOW + 10_000 * MS, limits.deadlineNanos(0, NOW, NOW), "hbase.rpc.timeout");
    assertEquals(NOW + 2_000 * MS, limits.deadlineNanos(4_000, NOW, NOW), "the call's timeout");
    assertEquals(
        NOW + 1_500 * MS,
        limits.deadlineNanos(4_000, NOW - 1_000 * MS, NOW),
        "less the time the call waited");
    assertEquals(
        NOW + 10 * MS,
        limits.deadlineNanos(4_000, NOW - 9_000 * MS, NOW),
        "never below the minimum");
    ScanLimits shortLease = new ScanLimits(1_000, 60_000, 1 << 20, 10, true);
    assertEquals(NOW + 500 * MS, shortLease.deadlineNanos(60_000, NOW, NOW), "the lease");
  }

  @Test
  void onlyClientsTakingHeartbeatsAndPartialsAreLimitedByTime() {
    ScanLimits limits = new ScanLimits(60_000, 60_000, 1 << 20, 10, true);
    ScanRequest both =
        ScanRequest.newBuilder()
            .setClientHandlesHeartbeats(true)
            .setClientHandlesPartials(true)
            .build();
    assertTrue(limits.timed(both));
    assertFalse(limits.timed(both.toBuilder().setClientHandlesPartials(false).build()));
    assertFalse(limits.timed(both.toBuilder().clearClientHandlesHeartbeats().build()));
    assertFalse(new ScanLimits(60_000, 60_000, 1 << 20, 10, false).timed(both), "turned off");
  }
}
