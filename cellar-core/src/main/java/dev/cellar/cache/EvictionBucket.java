package dev.cellar.cache;

import java.util.Arrays;
import java.util.function.ToLongFunction;

/**
 * The entries of one priority group during one eviction run (HBase's BlockBucket with its
 * LruCachedBlockQueue): the group's total size against its target share, and its least recently
 * read blocks, bounded to about {@code limit} bytes since a run never frees more than that.
 *
 * <p>Memory: the candidates are a max-heap on recency in three parallel arrays (tick, size, entry),
 * so admitting an older block drops the newest once the rest still covers the limit; a run keeps
 * O(limit / block size) candidates per group instead of sorting the whole cache, and allocates
 * nothing per entry (a cache smaller than its working set runs an eviction every few dozen misses,
 * on a thread that takes its CPU from the readers). The first {@link #free} sorts the heap in
 * place, oldest first; no entry is added after it. Used by one eviction run on one thread.
 */
public final class EvictionBucket<E extends EvictionCandidate> {

  private static final int INITIAL_CANDIDATES = 16;

  private final long target;
  private final long limit;
  private long[] ticks = new long[INITIAL_CANDIDATES];
  private long[] sizes = new long[INITIAL_CANDIDATES];
  private Object[] entries = new Object[INITIAL_CANDIDATES];
  private int count;
  private boolean sorted;
  private long queuedBytes;
  private long totalSize;

  /**
   * @param target the group's share of the cache in bytes
   * @param limit about the most bytes one run frees, bounding the candidates kept
   */
  public EvictionBucket(long target, long limit) {
    this.target = target;
    this.limit = limit;
  }

  /**
   * Counts {@code entry} in the group's size and keeps it if it is among the oldest.
   *
   * @throws IllegalStateException after {@link #free}
   */
  public void add(E entry) {
    if (sorted) {
      throw new IllegalStateException("an eviction bucket takes no entry once it freed");
    }
    long size = entry.evictionSize();
    totalSize += size;
    long lastAccess = entry.lastAccess();
    if (queuedBytes < limit) {
      push(entry, lastAccess, size);
      return;
    }
    if (count == 0 || lastAccess < ticks[0]) {
      push(entry, lastAccess, size);
      while (queuedBytes - sizes[0] >= limit) {
        queuedBytes -= sizes[0];
        popNewest();
      }
    }
  }

  /** The bytes of all the group's blocks. */
  public long totalSize() {
    return totalSize;
  }

  /** How far the group is above its target share; negative when below. */
  public long overflow() {
    return totalSize - target;
  }

  /**
   * Evicts the group's least recently read blocks until {@code bytes} are freed or the candidates
   * run out; {@code evictor} removes one block and returns the bytes it freed (0 if already gone).
   * A later call walks the same candidates again from the oldest.
   */
  @SuppressWarnings("unchecked")
  public long free(long bytes, ToLongFunction<E> evictor) {
    sortOldestFirst();
    long freed = 0;
    for (int i = 0; i < count && freed < bytes; i++) {
      freed += evictor.applyAsLong((E) entries[i]);
    }
    return freed;
  }

  private void push(Object entry, long tick, long size) {
    if (count == ticks.length) {
      int grown = 2 * count;
      ticks = Arrays.copyOf(ticks, grown);
      sizes = Arrays.copyOf(sizes, grown);
      entries = Arrays.copyOf(entries, grown);
    }
    queuedBytes += size;
    int at = count++;
    while (at > 0) {
      int parent = (at - 1) >>> 1;
      if (ticks[parent] >= tick) {
        break;
      }
      move(parent, at);
      at = parent;
    }
    set(at, entry, tick, size);
  }

  /** Drops the heap's newest candidate (its root). */
  private void popNewest() {
    count--;
    siftDown(0, count, entries[count], ticks[count], sizes[count]);
    entries[count] = null;
  }

  /** Places a candidate at {@code at} of the heap's first {@code end} slots, moving it down. */
  private void siftDown(int at, int end, Object entry, long tick, long size) {
    while (true) {
      int child = 2 * at + 1;
      if (child >= end) {
        break;
      }
      if (child + 1 < end && ticks[child + 1] > ticks[child]) {
        child++;
      }
      if (ticks[child] <= tick) {
        break;
      }
      move(child, at);
      at = child;
    }
    set(at, entry, tick, size);
  }

  /** Heapsort in place: the newest goes last, repeatedly, leaving the oldest first. */
  private void sortOldestFirst() {
    if (sorted) {
      return;
    }
    sorted = true;
    for (int end = count - 1; end > 0; end--) {
      Object entry = entries[end];
      long tick = ticks[end];
      long size = sizes[end];
      move(0, end);
      siftDown(0, end, entry, tick, size);
    }
  }

  private void move(int from, int to) {
    entries[to] = entries[from];
    ticks[to] = ticks[from];
    sizes[to] = sizes[from];
  }

  private void set(int at, Object entry, long tick, long size) {
    entries[at] = entry;
    ticks[at] = tick;
    sizes[at] = size;
  }
}
