package dev.cellar.cache;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/**
 * The blocks of one priority group during one eviction run (HBase's BlockBucket with its
 * LruCachedBlockQueue): the group's total size against its target share, and its least recently
 * read blocks, bounded to about {@code limit} bytes since a run never frees more than that.
 *
 * <p>Memory: the queue is a max-heap on recency, so admitting an older block drops the newest once
 * the rest still covers the limit; a run keeps O(limit / block size) candidates per group instead
 * of sorting the whole cache. Used by one eviction run on one thread.
 */
final class EvictionBucket {

  private static final Comparator<Candidate> NEWEST_FIRST =
      Comparator.comparingLong(Candidate::lastAccess).reversed();

  private final long target;
  private final long limit;
  private final PriorityQueue<Candidate> oldest = new PriorityQueue<>(NEWEST_FIRST);
  private long queuedBytes;
  private long totalSize;

  EvictionBucket(long target, long limit) {
    this.target = target;
    this.limit = limit;
  }

  void add(LruEntry entry) {
    totalSize += entry.size;
    long lastAccess = entry.lastAccess();
    if (queuedBytes < limit) {
      offer(new Candidate(entry, lastAccess));
      return;
    }
    if (lastAccess < oldest.peek().lastAccess) {
      offer(new Candidate(entry, lastAccess));
      while (queuedBytes - oldest.peek().entry.size >= limit) {
        queuedBytes -= oldest.poll().entry.size;
      }
    }
  }

  private void offer(Candidate candidate) {
    oldest.add(candidate);
    queuedBytes += candidate.entry.size;
  }

  /** The bytes of all the group's blocks. */
  long totalSize() {
    return totalSize;
  }

  /** How far the group is above its target share; negative when below. */
  long overflow() {
    return totalSize - target;
  }

  /**
   * Evicts the group's least recently read blocks until {@code bytes} are freed or the candidates
   * run out; {@code evictor} removes one block and returns the bytes it freed (0 if already gone).
   */
  long free(long bytes, ToLongFunction<LruEntry> evictor) {
    List<Candidate> ordered = new ArrayList<>(oldest);
    ordered.sort(Comparator.comparingLong(Candidate::lastAccess));
    long freed = 0;
    for (Candidate candidate : ordered) {
      if (freed >= bytes) {
        break;
      }
      freed += evictor.applyAsLong(candidate.entry);
    }
    return freed;
  }

  /** An entry with its access tick read once, so ordering stays consistent while readers touch it. */
  private record Candidate(LruEntry entry, long lastAccess) {}
}
