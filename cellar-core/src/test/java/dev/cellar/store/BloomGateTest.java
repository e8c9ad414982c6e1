package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a point read asks a file's bloom filter, as the rejections it saw decide. */
class BloomGateTest {

  /**
   * Runs {@code reads} reads of which the bloom rejects one in {@code rejectEvery}; returns asks.
   */
  private static int run(BloomGate gate, int reads, int rejectEvery) {
    int asked = 0;
    for (int i = 0; i < reads; i++) {
      if (gate.ask()) {
        asked++;
        gate.answered(rejectEvery == 0 || asked % rejectEvery != 0);
      }
    }
    return asked;
  }

  @Test
  void aNewGateAsksEveryRead() {
    BloomGate gate = new BloomGate();
    assertEquals(BloomGate.WINDOW - 1, run(gate, BloomGate.WINDOW - 1, 0));
    assertFalse(gate.skipping());
  }

  @Test
  void aBloomThatNeverRejectsIsAskedOnlyBySamples() {
    BloomGate gate = new BloomGate();
    run(gate, BloomGate.WINDOW, 0);
    assertTrue(gate.skipping());
    int reads = 64 * BloomGate.SAMPLE_EVERY;
    assertEquals(64, run(gate, reads, 0), "one read in SAMPLE_EVERY asks");
    assertTrue(gate.skipping());
  }

  @Test
  void aBloomThatRejectsOftenEnoughKeepsBeingAsked() {
    BloomGate gate = new BloomGate();
    int reads = 4 * BloomGate.WINDOW;
    // one rejection in 16 asks: twice the threshold of one in 32
    assertEquals(reads, run(gate, reads, 16));
    assertFalse(gate.skipping());
  }

  @Test
  void aBloomThatRejectsJustBelowTheThresholdIsSkipped() {
    BloomGate gate = new BloomGate();
    for (int i = 0; i < BloomGate.WINDOW; i++) {
      assertTrue(gate.ask());
      gate.answered(i >= BloomGate.MIN_REJECTIONS - 1);
    }
    assertTrue(gate.skipping(), "31 rejections in 1,024 asks");
  }

  @Test
  void samplesThatStartRejectingTurnAskingBackOn() {
    BloomGate gate = new BloomGate();
    run(gate, BloomGate.WINDOW, 0);
    assertTrue(gate.skipping());
    // the workload turns to rows the file lacks: every sampled ask rejects
    int reads = 0;
    while (gate.skipping()) {
      if (gate.ask()) {
        gate.answered(false);
      }
      reads++;
    }
    assertEquals(
        BloomGate.WINDOW * BloomGate.SAMPLE_EVERY,
        reads,
        "a window of samples, then every read asks again");
    assertTrue(gate.ask());
  }
}
