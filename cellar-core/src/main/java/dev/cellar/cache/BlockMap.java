package dev.cellar.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A concurrent map from a block's file id and offset to a cache's entry for it, for the lookup
 * every cached Get makes several times: a lookup reads one slot of an array and the entry there. A
 * {@link java.util.concurrent.ConcurrentHashMap} reads the table slot, then a node, then the node's
 * key object, then the value: on a cache larger than the CPU's caches each is a memory stall, and a
 * Get's block lookups were a seventh of its time.
 *
 * <p><b>Layout.</b> {@value #SEGMENTS} segments, chosen by the high bits of the key's hash, each an
 * open-addressing table of entries with linear probing, at most half full counting the slots of
 * removed entries ({@link #REMOVED}), so a lookup reads one or two neighbouring slots. The entry
 * carries its own file id and offset ({@link Keyed}), so matching a slot reads nothing else.
 *
 * <p><b>Concurrency.</b> Lookups take no lock: they read the segment's table (volatile), then slots
 * with acquire loads. Changes take the segment's lock, store slots with release stores, and replace
 * a table that fills up with a new one (volatile store) built from the live entries; a lookup still
 * on the old table sees the map as it was when it started, which a lookup racing a change may
 * anyway. A removed entry's slot keeps {@link #REMOVED} until the table is rebuilt, so a probe
 * never stops early at a slot emptied behind it. As with any concurrent map, a lookup may return an
 * entry a racing thread is removing: the caches guard block memory with the entry's reference
 * count, not with the map.
 *
 * <p><b>Memory.</b> An array slot per entry at a load of at most a half (4 to 8 bytes per slot),
 * against a 32-byte node and the key object per entry in a hash map.
 */
public final class BlockMap<E extends BlockMap.Keyed> {

  /** What an entry of the map says of itself: the file id and offset it is stored under. */
  public interface Keyed {

    /** The id of the block's file ({@link BlockCacheKey#fileId()}). */
    long keyFileId();

    /** The block's offset in its file ({@link BlockCacheKey#offset()}). */
    long keyOffset();
  }

  static final int SEGMENTS = 16;
  private static final int SEGMENT_BITS = Integer.numberOfTrailingZeros(SEGMENTS);
  private static final int INITIAL_SLOTS = 64;

  /** The slot of a removed entry: taken by probes, free for inserts. */
  private static final Object REMOVED = new Object();

  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

  private final Segment[] segments = new Segment[SEGMENTS];

  public BlockMap() {
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment();
    }
  }

  /**
   * The hash of a block's key: {@link BlockCacheKey#hashCode()}'s mix, so the blocks of one file at
   * a regular stride spread over the slots.
   */
  static int hash(long fileId, long offset) {
    long mixed = ((fileId * 0x9E3779B97F4A7C15L) ^ offset) * 0xBF58476D1CE4E5B9L;
    return (int) (mixed ^ (mixed >>> 32));
  }

  private Segment segmentFor(int hash) {
    return segments[hash >>> (Integer.SIZE - SEGMENT_BITS)];
  }

  /** The entry of the block at {@code offset} of file {@code fileId}, or null. */
  @SuppressWarnings("unchecked")
  public E get(long fileId, long offset) {
    int hash = hash(fileId, offset);
    Object[] slots = segmentFor(hash).slots;
    int mask = slots.length - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      Object slot = SLOT.getAcquire(slots, i);
      if (slot == null) {
        return null;
      }
      if (slot != REMOVED) {
        E entry = (E) slot;
        if (entry.keyOffset() == offset && entry.keyFileId() == fileId) {
          return entry;
        }
      }
    }
  }

  /** The entry of {@code key}, or null. */
  public E get(BlockCacheKey key) {
    return get(key.fileId(), key.offset());
  }

  public boolean containsKey(BlockCacheKey key) {
    return get(key) != null;
  }

  /** Adds {@code entry} unless an entry of its key is there; returns that entry, or null. */
  public E putIfAbsent(E entry) {
    int hash = hash(entry.keyFileId(), entry.keyOffset());
    return segmentFor(hash).putIfAbsent(hash, entry);
  }

  /** Removes {@code entry} if it is the one stored under its key; true if it was. */
  public boolean remove(E entry) {
    int hash = hash(entry.keyFileId(), entry.keyOffset());
    return segmentFor(hash).remove(hash, entry);
  }

  /** The number of entries. */
  public int size() {
    int size = 0;
    for (Segment segment : segments) {
      size += segment.size;
    }
    return size;
  }

  /**
   * Calls {@code action} with every entry, segment by segment, each from the table as it was when
   * its turn came: entries added or removed meanwhile may or may not be seen.
   */
  @SuppressWarnings("unchecked")
  public void forEach(Consumer<? super E> action) {
    for (Segment segment : segments) {
      Object[] slots = segment.slots;
      for (int i = 0; i < slots.length; i++) {
        Object slot = SLOT.getAcquire(slots, i);
        if (slot != null && slot != REMOVED) {
          action.accept((E) slot);
        }
      }
    }
  }

  /** A list of the entries at one pass ({@link #forEach}). */
  public List<E> values() {
    List<E> values = new ArrayList<>();
    forEach(values::add);
    return values;
  }

  /** One segment: its table and the counts that decide when to rebuild it, under its lock. */
  private static final class Segment {

    volatile Object[] slots = new Object[INITIAL_SLOTS];

    /** Live entries; written under the lock, read by {@link BlockMap#size()} without it. */
    volatile int size;

    /** Slots holding {@link #REMOVED}; under the lock. */
    private int removed;

    synchronized <E extends Keyed> E putIfAbsent(int hash, E entry) {
      Object[] table = slots;
      int mask = table.length - 1;
      int free = -1;
      for (int i = hash & mask; ; i = (i + 1) & mask) {
        Object slot = table[i];
        if (slot == null) {
          if (free < 0) {
            free = i;
          }
          break;
        }
        if (slot == REMOVED) {
          if (free < 0) {
            free = i;
          }
        } else {
          @SuppressWarnings("unchecked")
          E present = (E) slot;
          if (present.keyOffset() == entry.keyOffset()
              && present.keyFileId() == entry.keyFileId()) {
            return present;
          }
        }
      }
      boolean reused = table[free] == REMOVED;
      SLOT.setRelease(table, free, entry);
      size++;
      if (reused) {
        removed--;
      } else if (2 * (size + removed) > table.length) {
        rebuild(table);
      }
      return null;
    }

    synchronized boolean remove(int hash, Object entry) {
      Object[] table = slots;
      int mask = table.length - 1;
      for (int i = hash & mask; ; i = (i + 1) & mask) {
        Object slot = table[i];
        if (slot == null) {
          return false;
        }
        if (slot == entry) {
          SLOT.setRelease(table, i, REMOVED);
          size--;
          removed++;
          return true;
        }
      }
    }

    /**
     * Replaces the table with one holding the live entries at most a quarter full: twice as large
     * when they fill more than a quarter of the old one, the same size when removed slots did.
     */
    private void rebuild(Object[] old) {
      int length = old.length;
      while (4L * size > length) {
        length *= 2;
      }
      Object[] table = new Object[length];
      int mask = length - 1;
      for (Object slot : old) {
        if (slot != null && slot != REMOVED) {
          Keyed entry = (Keyed) slot;
          int i = hash(entry.keyFileId(), entry.keyOffset()) & mask;
          while (table[i] != null) {
            i = (i + 1) & mask;
          }
          table[i] = entry;
        }
      }
      removed = 0;
      slots = table;
    }
  }
}
