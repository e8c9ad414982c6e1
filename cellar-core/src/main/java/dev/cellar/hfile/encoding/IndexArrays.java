package dev.cellar.hfile.encoding;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code long[]} arrays of blocks' seek indexes ({@link CellOffsets}, {@link Checkpoints}),
 * handed back when the block object that carried an index is released for the last time ({@link
 * SeekIndex#recycle}) and taken again by the next index built. In a cache that holds a third of
 * what is read, a block is indexed at its third seek and evicted soon after, so without this every
 * eviction left an index array of a few hundred bytes to the garbage collector, a fifth of the heap
 * bytes of a get.
 *
 * <p><b>Classes.</b> Arrays come in lengths of multiples of {@value #CLASS_LONGS} longs, up to
 * {@value #MAX_POOLED_LONGS} (the index of a block of about 1 MiB of small cells); an index takes
 * an array of the smallest class that holds it, so the blocks of one family keep finding arrays of
 * their own class. Longer indexes get an exact array that is not kept.
 *
 * <p><b>Memory.</b> One pool for the process, as the arrays belong to no cache or file: what it
 * keeps is bounded by {@value #MAX_KEPT_BYTES} bytes of arrays; an array given back past that is
 * left to the garbage collector. An array handed out keeps the values its last holder wrote: the
 * index builder writes every long it reads.
 *
 * <p><b>Concurrency.</b> One lock per class, taken for a push or a pop (an index is built or freed
 * a few tens of thousands of times a second at most, by whichever thread builds it or releases its
 * block last); allocation-free when an array is free.
 */
public final class IndexArrays {

  /** Class granularity, in longs (a 128-byte step). */
  static final int CLASS_LONGS = 16;
  /** The longest array kept, in longs. */
  static final int MAX_POOLED_LONGS = 4096;
  /** The most bytes of arrays the pool keeps. */
  static final long MAX_KEPT_BYTES = 16L * 1024 * 1024;

  private static final FreeArrays[] CLASSES = new FreeArrays[MAX_POOLED_LONGS / CLASS_LONGS + 1];
  private static final AtomicLong KEPT_BYTES = new AtomicLong();

  static {
    for (int i = 1; i < CLASSES.length; i++) {
      CLASSES[i] = new FreeArrays();
    }
  }

  private IndexArrays() {}

  /** An array of at least {@code length} longs, its contents left as its last holder wrote them. */
  static long[] take(int length) {
    if (length <= 0 || length > MAX_POOLED_LONGS) {
      return new long[length];
    }
    int index = (length + CLASS_LONGS - 1) / CLASS_LONGS;
    long[] array = CLASSES[index].pop();
    if (array == null) {
      return new long[index * CLASS_LONGS];
    }
    KEPT_BYTES.addAndGet(-bytes(array));
    return array;
  }

  /** Gives back {@code array}, which its holder no longer reads; no-op for one not of a class. */
  static void give(long[] array) {
    int length = array.length;
    if (length == 0 || length > MAX_POOLED_LONGS || length % CLASS_LONGS != 0) {
      return;
    }
    long bytes = bytes(array);
    if (KEPT_BYTES.addAndGet(bytes) > MAX_KEPT_BYTES) {
      KEPT_BYTES.addAndGet(-bytes);
      return;
    }
    CLASSES[length / CLASS_LONGS].push(array);
  }

  /** Bytes of arrays the pool keeps now. */
  public static long keptBytes() {
    return KEPT_BYTES.get();
  }

  private static long bytes(long[] array) {
    return (long) array.length * Long.BYTES;
  }

  /** A stack of the free arrays of one class, grown as needed, under its own lock. */
  private static final class FreeArrays {

    private long[][] arrays = new long[8][];
    private int size;

    synchronized long[] pop() {
      if (size == 0) {
        return null;
      }
      long[] array = arrays[--size];
      arrays[size] = null;
      return array;
    }

    synchronized void push(long[] array) {
      if (size == arrays.length) {
        arrays = Arrays.copyOf(arrays, 2 * size);
      }
      arrays[size++] = array;
    }
  }
}
