package dev.cellar.memory;

/**
 * The allocator's free pool slots, split over a few {@link FreeSlotStack}s so that threads on
 * different cores mostly work on different stack heads and reuse the buffers they released
 * themselves, whose memory is still in their core's cache.
 *
 * <p>Concurrency: a thread pops from and pushes to the stripe its thread id maps to; a pop that
 * finds its stripe empty tries the others in turn before reporting the pool empty, so a free slot
 * is never missed while one exists in some stripe. Each slot is in at most one stripe at a time (it
 * is pushed only by its single releaser), which each stack's own rules keep consistent.
 * Allocation-free.
 */
final class StripedFreeSlots {

  private final FreeSlotStack[] stripes;
  private final int mask;

  StripedFreeSlots(int capacity, int stripeCount) {
    int count = Integer.highestOneBit(Math.max(1, stripeCount));
    stripes = new FreeSlotStack[count];
    for (int i = 0; i < count; i++) {
      stripes[i] = new FreeSlotStack(capacity);
    }
    mask = count - 1;
  }

  /** One stripe per two hardware threads' worth of callers, at least one, a power of two. */
  static int defaultStripes() {
    return Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 2);
  }

  private int home() {
    long id = Thread.currentThread().threadId();
    return (int) (id ^ (id >>> 16)) & mask;
  }

  /** A free slot, preferring the calling thread's stripe, or -1 if every stripe is empty. */
  int pop() {
    int home = home();
    for (int i = 0; i <= mask; i++) {
      int slot = stripes[(home + i) & mask].pop();
      if (slot >= 0) {
        return slot;
      }
    }
    return -1;
  }

  /** Returns {@code slot} to the calling thread's stripe. */
  void push(int slot) {
    stripes[home()].push(slot);
  }
}
