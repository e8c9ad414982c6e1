package dev.cellar.row;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.cellar.memory.Buf;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PinsTest {

  @Test
  void pinsEachBufferOnceAndReleasesEachOnce() {
    List<Buf> bufs = new ArrayList<>();
    for (int i = 0; i < 3 * Pins.LINEAR_LIMIT; i++) {
      bufs.add(Buf.wrap(new byte[8]));
    }
    Pins pins = new Pins();
    for (int round = 0; round < 3; round++) {
      for (Buf buf : bufs) {
        pins.pin(buf);
      }
    }
    assertEquals(bufs.size(), pins.size());
    for (Buf buf : bufs) {
      assertEquals(2, buf.refCnt(), "one reference for the owner, one for the pins");
    }
    pins.release();
    pins.release();
    for (Buf buf : bufs) {
      assertEquals(1, buf.refCnt());
    }
    assertThrows(IllegalStateException.class, () -> pins.pin(bufs.get(0)));
    bufs.forEach(Buf::release);
  }

  /**
   * A row holder carrying its pins over keeps, without a new reference, the buffers the next row
   * pins again and drops the others, also past the identity map's threshold.
   */
  @Test
  void carriedOverPinsAreTakenOverOrDropped() {
    List<Buf> bufs = new ArrayList<>();
    for (int i = 0; i < 2 * Pins.LINEAR_LIMIT; i++) {
      bufs.add(Buf.wrap(new byte[8]));
    }
    for (int held : new int[] {3, bufs.size()}) {
      Pins pins = new Pins();
      for (int i = 0; i < held; i++) {
        pins.pin(bufs.get(i));
      }
      pins.carryOver();
      pins.pin(bufs.get(1));
      pins.pin(bufs.get(held - 1));
      Buf fresh = Buf.wrap(new byte[8]);
      pins.pin(fresh);
      pins.releaseCarried();
      assertEquals(3, pins.size(), held + " held");
      for (int i = 0; i < held; i++) {
        boolean kept = i == 1 || i == held - 1;
        assertEquals(kept ? 2 : 1, bufs.get(i).refCnt(), "buffer " + i + " of " + held);
      }
      assertEquals(2, fresh.refCnt());
      pins.pin(bufs.get(1));
      assertEquals(3, pins.size(), "a buffer taken over is still found");
      pins.releaseCarried();
      assertEquals(3, pins.size(), "nothing carried, nothing dropped");
      pins.release();
      assertEquals(1, fresh.refCnt());
      fresh.release();
      for (Buf buf : bufs) {
        assertEquals(1, buf.refCnt());
      }
    }
    bufs.forEach(Buf::release);
  }

  /** Moving hands the references over: none taken, one dropped for a buffer already held. */
  @Test
  void movingHandsTheReferencesOver() {
    Buf shared = Buf.wrap(new byte[8]);
    Buf moved = Buf.wrap(new byte[8]);
    Pins source = new Pins();
    source.pin(shared);
    source.pin(moved);
    Pins target = new Pins();
    target.pin(shared);
    source.moveAllInto(target);
    assertEquals(0, source.size());
    assertEquals(2, target.size());
    assertEquals(2, shared.refCnt(), "the owner's and the target's");
    assertEquals(2, moved.refCnt(), "the owner's and the target's");
    source.release();
    target.release();
    assertEquals(1, shared.refCnt());
    assertEquals(1, moved.refCnt());
    assertThrows(IllegalStateException.class, () -> new Pins().moveAllInto(target));
    shared.release();
    moved.release();
  }

  /** One is made per Get, so a result pinning one block must cost little heap. */
  @Test
  void aResultPinningOneBufferAllocatesLittle() {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    Buf buf = Buf.wrap(new byte[8]);
    int rounds = 20_000;
    for (int warm = 0; warm < 2; warm++) {
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < rounds; i++) {
        Pins pins = new Pins();
        pins.pin(buf);
        pins.pin(buf);
        pins.release();
      }
      long perResult = (threads.getCurrentThreadAllocatedBytes() - before) / rounds;
      if (warm == 1) {
        assertTrue(perResult <= 128, perResult + " heap bytes per result");
      }
    }
    buf.release();
  }
}
