package dev.cellar.cache.bucket;

import java.util.Arrays;

/**
 * A family of insertion-ordered lists of bucket indexes, one list per size class, where a bucket is
 * on at most one list of the family at a time. The links are intrusive, kept in int arrays indexed
 * by bucket, so adding, removing, and reading either end are O(1) and allocate nothing; this
 * replaces the insertion-ordered maps HBase's BucketAllocator keeps per size class.
 *
 * <p>Not thread-safe: the allocator guards it with its own lock.
 */
final class BucketLists {

  static final int NONE = -1;

  private final int[] previous;
  private final int[] next;
  private final int[] owner;
  private final int[] head;
  private final int[] tail;
  private final int[] size;

  BucketLists(int buckets, int lists) {
    previous = new int[buckets];
    next = new int[buckets];
    owner = new int[buckets];
    Arrays.fill(owner, NONE);
    head = new int[lists];
    tail = new int[lists];
    Arrays.fill(head, NONE);
    Arrays.fill(tail, NONE);
    size = new int[lists];
  }

  /** Appends {@code bucket}, which must be on no list of this family. */
  void addLast(int list, int bucket) {
    if (owner[bucket] != NONE) {
      throw new IllegalStateException("bucket " + bucket + " is already on list " + owner[bucket]);
    }
    owner[bucket] = list;
    previous[bucket] = tail[list];
    next[bucket] = NONE;
    if (tail[list] == NONE) {
      head[list] = bucket;
    } else {
      next[tail[list]] = bucket;
    }
    tail[list] = bucket;
    size[list]++;
  }

  /** Unlinks {@code bucket}, which must be on a list of this family. */
  void remove(int bucket) {
    int list = owner[bucket];
    if (list == NONE) {
      throw new IllegalStateException("bucket " + bucket + " is on no list");
    }
    int before = previous[bucket];
    int after = next[bucket];
    if (before == NONE) {
      head[list] = after;
    } else {
      next[before] = after;
    }
    if (after == NONE) {
      tail[list] = before;
    } else {
      previous[after] = before;
    }
    owner[bucket] = NONE;
    size[list]--;
  }

  /** The oldest bucket on {@code list}, or {@link #NONE}. */
  int first(int list) {
    return head[list];
  }

  /** The most recently added bucket on {@code list}, or {@link #NONE}. */
  int last(int list) {
    return tail[list];
  }

  int size(int list) {
    return size[list];
  }
}
