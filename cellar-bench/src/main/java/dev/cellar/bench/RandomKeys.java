package dev.cellar.bench;

import java.util.SplittableRandom;

/**
 * A fixed sequence of uniformly random keys in [0, bound), drawn before a measurement and then
 * replayed in a loop, so that picking a key costs an array read and allocates nothing. One per
 * benchmark thread; not thread-safe.
 */
final class RandomKeys {

  private static final int COUNT = 1 << 16;

  private final int[] keys = new int[COUNT];
  private int next;

  RandomKeys(long seed, int bound) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < COUNT; i++) {
      keys[i] = random.nextInt(bound);
    }
  }

  int next() {
    int key = keys[next];
    next = (next + 1) & (COUNT - 1);
    return key;
  }
}
