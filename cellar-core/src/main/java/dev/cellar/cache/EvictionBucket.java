package dev.cellar.cache;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/**
 * The entries of one priority group during one eviction run (HBase's BlockBucket with its
 * LruCachedBlockQueue): the group's total size against its target share, and its least recently
 * read blocks, bounded to about {@code limit} bytes since a run never frees more than that.
 *
 * <p>Memory: the queue is a max-heap on recency, so admitting an older block drops the newest once
 * the rest still covers the limit; a run keeps O(limit / block size) candidates per group instead
 * of sorting the whole cache. Used by one eviction run on one thread.
 */
public final class EvictionBucket<E extends EvictionCandidate> {

  private static final Comparator<Candidate<?>> NEWEST_FIRST =
      Comparator.comparingLong((Candidate<?> candidate) -> candidate.lastAccess()).reversed();

  private final long target;
  private final long limit;
  private final PriorityQueue<Candidate<E>> oldest = new PriorityQueue<>(NEWEST_FIRST);
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

  /** Counts {@code entry} in the group's size and keeps it if it is among the oldest. */
  public void add(E entry) {
    long size = entry.evictionSize();
    totalSize += size;
    long lastAccess = entry.lastAccess();
    if (queuedBytes < limit) {
      offer(new Candidate<>(entry, lastAccess, size));
      return;
    }
    if (lastAccess < oldest.peek().lastAccess()) {
      offer(new Candidate<>(entry, lastAccess, size));
      while (queuedBytes - oldest.peek().size >= limit) {
        queuedBytes -= oldest.poll().size;
      }
    }
  }

  private void offer(Candidate<E> candidate) {
    oldest.add(candidate);
    queuedBytes += candidate.size;
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
   */
  public long free(long bytes, ToLongFunction<E> evictor) {
    List<Candidate<E>> ordered = new ArrayList<>(oldest);
    ordered.sort(Comparator.comparingLong(Candidate::lastAccess));
    long freed = 0;
    for (Candidate<E> candidate : ordered) {
      if (freed >= bytes) {
        break;
      }
      freed += evictor.applyAsLong(candidate.entry);
    }
    return freed;
  }

  /** An entry with its access tick read once, so ordering stays consistent while readers touch it. */
  private record Candidate<E>(E entry, long lastAccess, long size) {}
}
