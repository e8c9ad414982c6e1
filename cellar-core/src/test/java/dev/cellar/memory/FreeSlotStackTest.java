package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FreeSlotStackTest {

  @Test
  void lastInFirstOut() {
    FreeSlotStack stack = new FreeSlotStack(4);
    assertEquals(-1, stack.pop());
    stack.push(2);
    stack.push(0);
    stack.push(3);
    assertEquals(3, stack.pop());
    assertEquals(0, stack.pop());
    stack.push(1);
    assertEquals(1, stack.pop());
    assertEquals(2, stack.pop());
    assertEquals(-1, stack.pop());
  }

  @Test
  void concurrentPopPushNeverHandsOutASlotTwice() throws Exception {
    int slots = 8;
    int threads = 4;
    FreeSlotStack stack = new FreeSlotStack(slots);
    for (int i = 0; i < slots; i++) {
      stack.push(i);
    }
    java.util.concurrent.atomic.AtomicIntegerArray owners =
        new java.util.concurrent.atomic.AtomicIntegerArray(slots);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CyclicBarrier start = new CyclicBarrier(threads);
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int id = t + 1;
      workers[t] =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < 200_000; i++) {
                    int slot = stack.pop();
                    if (slot < 0) {
                      continue;
                    }
                    if (!owners.compareAndSet(slot, 0, id)) {
                      throw new AssertionError("slot " + slot + " handed out twice");
                    }
                    owners.set(slot, 0);
                    stack.push(slot);
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "stack-stress-" + t);
      workers[t].start();
    }
    for (Thread worker : workers) {
      worker.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    BitSet seen = new BitSet();
    for (int slot = stack.pop(); slot >= 0; slot = stack.pop()) {
      assertTrue(!seen.get(slot), "slot " + slot + " is in the stack twice");
      seen.set(slot);
    }
    assertEquals(slots, seen.cardinality(), "no slot lost");
  }
}
