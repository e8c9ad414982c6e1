package dev.cellar.cache;

/**
 * Ticks that order a cache's blocks by recency, read on every hit without writing a shared word:
 * the monotonic clock ({@link System#nanoTime()}, consistent across threads), shifted so that every
 * tick follows those restored from a persisted cache ({@link #follow}). A counter incremented on
 * every hit (HBase's) moves its cache line between the cores on each of a Get's block lookups;
 * reading the clock costs about 20 ns and shares nothing.
 *
 * <p>Thread-safe. The shift is written while a cache is restored, before readers use it, and only
 * read afterwards.
 */
public final class RecencyClock {

  private volatile long shift;

  /** The current tick: larger than every earlier tick of this clock and every one it follows. */
  public long tick() {
    return System.nanoTime() + shift;
  }

  /** Makes every later tick larger than {@code restored}, a tick of an earlier run. */
  public void follow(long restored) {
    long needed = restored + 1 - System.nanoTime();
    if (needed > shift) {
      shift = needed;
    }
  }
}
