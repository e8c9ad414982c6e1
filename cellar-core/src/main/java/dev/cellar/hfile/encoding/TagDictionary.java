package dev.cellar.hfile.encoding;

import dev.cellar.memory.ByteLayouts;
import java.lang.foreign.MemorySegment;

/**
 * HBase's LRU dictionary of tags ({@code LRUDictionary} with 127 entries), as delta encodings
 * compress tags with it. Not thread-safe: one per encoder or seeker, cleared at every block start.
 *
 * <p>Design: entries live in slots {@code 0 .. size-1}, and a slot's number is the entry's index on
 * disk. Indices are handed out in order until the dictionary is full; from then on a new entry
 * takes over the slot of the least recently used one. Slots are chained from most to least recently
 * used through two index arrays ({@code older}, {@code newer}); an insertion, a writer's hit and a
 * reader's lookup each move the entry to the most recent end, exactly as HBase's map does, so both
 * sides hand out the same indices. Empty entries are never stored. Slot memory is reused across
 * blocks, so a warmed-up dictionary allocates nothing.
 */
final class TagDictionary {

  /** Number of entries: HBase creates its tag dictionaries with {@code Byte.MAX_VALUE}. */
  static final int CAPACITY = Byte.MAX_VALUE;

  private static final int NO_SLOT = -1;
  private static final int INITIAL_ENTRY_CAPACITY = 16;
  private static final int HASH_MULTIPLIER = 31;

  private final byte[][] entries = new byte[CAPACITY][];
  private final MemorySegment[] segments = new MemorySegment[CAPACITY];
  private final int[] lengths = new int[CAPACITY];
  private final int[] hashes = new int[CAPACITY];
  private final int[] older = new int[CAPACITY];
  private final int[] newer = new int[CAPACITY];
  private int size;
  private int head = NO_SLOT;
  private int tail = NO_SLOT;

  /** Empties the dictionary; indices start again from 0. */
  void clear() {
    size = 0;
    head = NO_SLOT;
    tail = NO_SLOT;
  }

  /** Returns the number of entries. */
  int size() {
    return size;
  }

  /**
   * The writer's lookup: returns the index of an entry equal to the given bytes and makes it the
   * most recent, or adds the bytes as a new entry and returns -1.
   */
  int findOrAdd(MemorySegment source, long offset, int length) {
    int hash = hash(source, offset, length);
    for (int slot = 0; slot < size; slot++) {
      if (hashes[slot] == hash
          && lengths[slot] == length
          && MemorySegment.mismatch(segments[slot], 0, length, source, offset, offset + length)
              < 0) {
        touch(slot);
        return slot;
      }
    }
    int slot = add(source, offset, length);
    if (slot != NO_SLOT) {
      hashes[slot] = hash;
    }
    return NO_SLOT;
  }

  /**
   * The reader's insertion of a literal: stores the bytes as the most recent entry, evicting the
   * least recent one when full. Returns the slot used, or -1 for an empty entry, which is not
   * stored.
   */
  int add(MemorySegment source, long offset, int length) {
    if (length <= 0) {
      return NO_SLOT;
    }
    int slot;
    if (size < CAPACITY) {
      slot = size++;
    } else {
      slot = tail;
      unlink(slot);
    }
    if (entries[slot] == null || entries[slot].length < length) {
      entries[slot] = new byte[Math.max(length, INITIAL_ENTRY_CAPACITY)];
      segments[slot] = MemorySegment.ofArray(entries[slot]);
    }
    MemorySegment.copy(source, offset, segments[slot], 0, length);
    lengths[slot] = length;
    linkAtHead(slot);
    return slot;
  }

  /** Returns whether {@code index} names an entry. */
  boolean contains(int index) {
    return index >= 0 && index < size;
  }

  /** The reader's lookup: makes entry {@code index} the most recent. */
  void use(int index) {
    touch(index);
  }

  /** Returns the memory of entry {@code index} (its bytes start at 0). */
  MemorySegment entry(int index) {
    return segments[index];
  }

  /** Returns the length of entry {@code index}. */
  int length(int index) {
    return lengths[index];
  }

  private void touch(int slot) {
    if (slot != head) {
      unlink(slot);
      linkAtHead(slot);
    }
  }

  private void unlink(int slot) {
    int before = newer[slot];
    int after = older[slot];
    if (before == NO_SLOT) {
      head = after;
    } else {
      older[before] = after;
    }
    if (after == NO_SLOT) {
      tail = before;
    } else {
      newer[after] = before;
    }
  }

  private void linkAtHead(int slot) {
    newer[slot] = NO_SLOT;
    older[slot] = head;
    if (head != NO_SLOT) {
      newer[head] = slot;
    }
    head = slot;
    if (tail == NO_SLOT) {
      tail = slot;
    }
  }

  private static int hash(MemorySegment source, long offset, int length) {
    int hash = 1;
    for (int i = 0; i < length; i++) {
      hash = HASH_MULTIPLIER * hash + source.get(ByteLayouts.BYTE, offset + i);
    }
    return hash;
  }
}
