package dev.cellar.hfile;

import dev.cellar.hfile.encoding.SeekIndex;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The seek indexes of one file's data blocks that its block cache leaves out: blocks read for one
 * reader and dropped after its seek, which a cache holding part of what is read at random leaves
 * out again and again. Without an index a seek into such a block walks from its first cell, half a
 * block on average, and a delta-encoded block (whose formats have no restart points) decodes every
 * cell of that walk. With one kept here, a seek restores the checkpoint before its key and decodes
 * the few cells after it, as a restart-point search in RocksDB's blocks does.
 *
 * <p><b>Which blocks.</b> A left-out block's index is built at its second seek that finds none here
 * ({@link #secondSeek}), so blocks read once (a sweep of Gets over cold data) cost no pass over
 * their cells; the indexes are sparse ({@link
 * dev.cellar.hfile.encoding.BlockSeeker#indexBlockSparsely}: at most 1/64 of the payload).
 *
 * <p><b>Layout and memory.</b> A table of {@code slots} entries keyed by block offset (a power of
 * two, about four per data block of the file) in which each block has two candidate slots; an entry
 * is an immutable pair of the offset and the index. A block takes the first of its slots that is
 * free (or its own), else replaces its second slot's entry: with one slot per block, a fifth of the
 * blocks shared theirs with another and the two kept replacing each other's index (one build per
 * six left-out reads of small rows); with two, a block loses its index only when both its slots are
 * another's. Memory is the table (12 bytes a slot) and the indexes, on the heap beside the file's
 * block index, outside the block cache's budget: at most a 64th of the data's size when every block
 * is left out, and at most what a {@link HeapBudget} shared by every open file allows (an index
 * that does not fit is used for its seek and not kept, its block then walked as before). A replaced
 * index is left to the garbage collector, never recycled, since a reader may still seek with it;
 * the file's reader empties the table and gives its bytes back when it closes.
 *
 * <p><b>Concurrency.</b> Lock-free: entries are published by compare-and-set (a put that loses a
 * race to the same slot gives its bytes back and keeps nothing) and read with acquire semantics, so
 * a reader that sees an entry sees its index whole. The second-seek marks are plain reads and
 * writes: two racing seeks may build one index twice, or a third seek may build it, which costs
 * time and no correctness.
 */
final class LeftOutSeekIndexes {

  /** Data bytes per slot: a quarter of a 64 KiB block. */
  private static final long BYTES_PER_SLOT = 16 * 1024;

  private static final int MIN_SLOTS = 16;
  private static final int MAX_SLOTS = 1 << 22;

  /** The heap an entry takes besides its index: the record and its slot. */
  private static final long ENTRY_BYTES = 32;

  /** A kept index and the heap bytes reserved for it (the index's and the entry's). */
  private record Entry(long offset, SeekIndex index, long bytes) {}

  private final HeapBudget budget;
  private final AtomicReferenceArray<Entry> entries;

  /** Per slot, one more than the offset of the block last sought there without an index, or 0. */
  private final AtomicLongArray sought;

  private final int mask;

  /**
   * A table for a file whose data blocks span {@code dataBytes} bytes, its indexes counted in
   * {@link HeapBudget#LEFT_OUT_SEEK_INDEXES}.
   */
  static LeftOutSeekIndexes forData(long dataBytes) {
    long wanted = Math.max(MIN_SLOTS, Math.min(MAX_SLOTS, dataBytes / BYTES_PER_SLOT));
    return new LeftOutSeekIndexes(
        Integer.highestOneBit((int) (wanted * 2 - 1)), HeapBudget.LEFT_OUT_SEEK_INDEXES);
  }

  /** A table of {@code slots} entries, a power of two, whose indexes {@code budget} bounds. */
  LeftOutSeekIndexes(int slots, HeapBudget budget) {
    if (slots <= 0 || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two, got " + slots);
    }
    this.budget = budget;
    this.entries = new AtomicReferenceArray<>(slots);
    this.sought = new AtomicLongArray(slots);
    this.mask = slots - 1;
  }

  /** The index of the block at {@code offset}, or null if none is kept. */
  SeekIndex find(long offset) {
    Entry entry = entries.getAcquire(firstSlot(offset));
    if (entry != null && entry.offset() == offset) {
      return entry.index();
    }
    entry = entries.getAcquire(secondSlot(offset));
    return entry != null && entry.offset() == offset ? entry.index() : null;
  }

  /**
   * Records a seek into the left-out block at {@code offset} that found no index; returns true if
   * it is the block's second in a row at its slot, when the caller is to build the index and {@link
   * #put} it.
   */
  boolean secondSeek(long offset) {
    int slot = firstSlot(offset);
    long mark = offset + 1;
    if (sought.getPlain(slot) == mark) {
      sought.setPlain(slot, 0);
      return true;
    }
    sought.setPlain(slot, mark);
    return false;
  }

  /**
   * Keeps {@code index} as the block at {@code offset}'s: in its first slot if that is free or the
   * block's, else in its second, replacing what is there. Returns false, keeping nothing, when the
   * budget has no room for it or another thread changed the slot meanwhile.
   */
  boolean put(long offset, SeekIndex index) {
    int first = firstSlot(offset);
    Entry there = entries.getAcquire(first);
    int slot = first;
    if (there != null && there.offset() != offset) {
      slot = secondSlot(offset);
      there = entries.getAcquire(slot);
    }
    long bytes = index.heapSize() + ENTRY_BYTES;
    long more = bytes - (there == null ? 0 : there.bytes());
    if (!budget.tryReserve(more)) {
      return false;
    }
    if (!entries.compareAndSet(slot, there, new Entry(offset, index, bytes))) {
      budget.release(more);
      return false;
    }
    return true;
  }

  /**
   * Drops every index kept and gives their bytes back to the budget: the file's reader closed. An
   * index put while this runs may stay until the table is collected, its bytes counted until then
   * only if it lands after the slot was emptied.
   */
  void clear() {
    for (int slot = 0; slot <= mask; slot++) {
      Entry dropped = entries.getAndSet(slot, null);
      if (dropped != null) {
        budget.release(dropped.bytes());
      }
    }
  }

  /** The number of slots. */
  int slots() {
    return mask + 1;
  }

  private int firstSlot(long offset) {
    return (int) ((offset * 0x9E3779B97F4A7C15L) >>> 32) & mask;
  }

  private int secondSlot(long offset) {
    return (int) ((offset * 0xC2B2AE3D27D4EB4FL) >>> 32) & mask;
  }
}
