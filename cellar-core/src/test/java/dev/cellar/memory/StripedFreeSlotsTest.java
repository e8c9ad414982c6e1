package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class StripedFreeSlotsTest {

  @Test
  void aSlotPushedByOneThreadIsFoundByAnother() throws Exception {
    StripedFreeSlots slots = new StripedFreeSlots(8, 4);
    Thread pusher = new Thread(() -> slots.push(5), "striped-pusher");
    pusher.start();
    pusher.join();
    assertEquals(5, slots.pop());
    assertEquals(-1, slots.pop());
  }

  @Test
  void concurrentUseNeverDuplicatesOrLosesASlot() throws Exception {
    int capacity = 16;
    StripedFreeSlots slots = new StripedFreeSlots(capacity, 4);
    for (int i = 0; i < capacity; i++) {
      slots.push(i);
    }
    AtomicIntegerArray owners = new AtomicIntegerArray(capacity);
    RefCntConcurrencyTest.runConcurrently(
        4,
        id -> {
          for (int i = 0; i < 200_000; i++) {
            int slot = slots.pop();
            if (slot < 0) {
              continue;
            }
            if (!owners.compareAndSet(slot, 0, id + 1)) {
              throw new AssertionError("slot " + slot + " handed out twice");
            }
            owners.set(slot, 0);
            slots.push(slot);
          }
        });
    BitSet seen = new BitSet();
    for (int slot = slots.pop(); slot >= 0; slot = slots.pop()) {
      assertFalse(seen.get(slot), "slot " + slot + " is free twice");
      seen.set(slot);
    }
    assertEquals(capacity, seen.cardinality(), "no slot lost");
  }
}
