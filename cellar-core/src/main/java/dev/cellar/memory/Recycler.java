package dev.cellar.memory;

/**
 * Returns the memory behind a buffer to its owner when the buffer's last reference is released.
 * Called exactly once per allocation, by whichever thread drops the count to zero.
 */
@FunctionalInterface
public interface Recycler {

  /**
   * Takes back the memory identified by {@code token} (a pool slot, or whatever the owner chose).
   */
  void recycle(int token);
}
