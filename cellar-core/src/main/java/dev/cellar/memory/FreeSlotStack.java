package dev.cellar.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A lock-free LIFO stack of free pool slots (small integers), allocating nothing per push or pop.
 *
 * <p>Concurrency: a Treiber stack whose links live in an {@code int[]} indexed by slot and whose
 * head packs a 32-bit version stamp with the top slot into one {@code AtomicLong}. Every successful
 * push or pop bumps the stamp, so the ABA case (a slot popped and pushed back between another
 * thread's read of the head and its CAS) fails the CAS and retries. A link written by a push is
 * published by the push's CAS and read after a volatile read of the head; a racing stale read of a
 * link can only happen when the head has changed, which the stamp detects. LIFO order also keeps
 * recently used, cache-warm buffers in use.
 */
final class FreeSlotStack {

  private static final int EMPTY = -1;

  private final int[] next;
  private final AtomicLong head = new AtomicLong(pack(0, EMPTY));

  FreeSlotStack(int capacity) {
    this.next = new int[capacity];
  }

  private static long pack(long stamp, int slot) {
    return (stamp << 32) | (slot & 0xFFFF_FFFFL);
  }

  /** Removes and returns a free slot, or -1 if none is free. */
  int pop() {
    for (; ; ) {
      long current = head.get();
      int top = (int) current;
      if (top == EMPTY) {
        return EMPTY;
      }
      long replacement = pack((current >>> 32) + 1, next[top]);
      if (head.compareAndSet(current, replacement)) {
        return top;
      }
    }
  }

  /** Adds {@code slot}, which must not already be in the stack. */
  void push(int slot) {
    for (; ; ) {
      long current = head.get();
      next[slot] = (int) current;
      if (head.compareAndSet(current, pack((current >>> 32) + 1, slot))) {
        return;
      }
    }
  }
}
