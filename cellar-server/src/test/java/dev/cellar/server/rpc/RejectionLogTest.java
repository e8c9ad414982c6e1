package dev.cellar.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Rejected connections are logged, at most a line a second, the rest counted into the next. */
class RejectionLogTest {

  @Test
  void aFloodIsOneLineASecondWithTheOthersCounted() throws InterruptedException {
    RejectionLog log = new RejectionLog();
    assertTrue(log.rejected("/10.0.0.1:1", "bad preamble"), "the first is logged");
    for (int i = 0; i < 1000; i++) {
      assertFalse(log.rejected("/10.0.0.1:" + i, "bad preamble"));
    }
    assertEquals(1000, log.unlogged());
    Thread.sleep(1100);
    assertTrue(log.rejected("/10.0.0.2:1", "frame too large"), "a second later, a line");
    assertEquals(0, log.unlogged(), "that line counted the others");
  }
}
