package dev.cellar.hfile.encoding;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The arrays of blocks' seek indexes ({@code long[]} for {@link CellOffsets}, {@code byte[]} for
 * {@link Checkpoints}), handed back when the block object that carried an index is released for the
 * last time ({@link SeekIndex#recycle}) and taken again by the next index built. In a cache that
 * holds a third of what is read, a block is indexed at its third seek and evicted soon after, so
 * without this every eviction left an index array of a few hundred bytes to the garbage collector,
 * a fifth of the heap bytes of a get.
 *
 * <p><b>Classes.</b> Arrays come in sizes of multiples of {@value #CLASS_BYTES} bytes, up to
 * {@value #MAX_POOLED_BYTES} (the index of a block of about 1 MiB of small cells), each element
 * type in classes of its own; an index takes an array of the smallest class that holds it, so the
 * blocks of one family keep finding arrays of their own class. Longer indexes get an exact array
 * that is not kept.
 *
 * <p><b>Memory.</b> One pool for the process, as the arrays belong to no cache or file: what it
 * keeps is bounded by {@value #MAX_KEPT_BYTES} bytes of arrays of both types; an array given back
 * past that is left to the garbage collector. An array handed out keeps the values its last holder
 * wrote: the index builders write every element they read.
 *
 * <p><b>Concurrency.</b> One lock per class, taken for a push or a pop (an index is built or freed
 * a few tens of thousands of times a second at most, by whichever thread builds it or releases its
 * block last); allocation-free when an array is free.
 */
public final class IndexArrays {

  /** Class granularity, in bytes. */
  static final int CLASS_BYTES = 128;

  /** Class granularity, in longs. */
  static final int CLASS_LONGS = CLASS_BYTES / Long.BYTES;

  /** The longest array kept, in bytes. */
  static final int MAX_POOLED_BYTES = 32 * 1024;

  /** The longest array kept, in longs. */
  static final int MAX_POOLED_LONGS = MAX_POOLED_BYTES / Long.BYTES;

  /** The most bytes of arrays the pool keeps. */
  static final long MAX_KEPT_BYTES = 16L * 1024 * 1024;

  private static final FreeArrays[] LONG_CLASSES = classes();
  private static final FreeArrays[] BYTE_CLASSES = classes();
  private static final AtomicLong KEPT_BYTES = new AtomicLong();

  private IndexArrays() {}

  private static FreeArrays[] classes() {
    FreeArrays[] classes = new FreeArrays[MAX_POOLED_BYTES / CLASS_BYTES + 1];
    for (int i = 1; i < classes.length; i++) {
      classes[i] = new FreeArrays();
    }
    return classes;
  }

  /** An array of at least {@code length} longs, its contents left as its last holder wrote them. */
  static long[] take(int length) {
    if (length <= 0 || length > MAX_POOLED_LONGS) {
      return new long[length];
    }
    int index = (length + CLASS_LONGS - 1) / CLASS_LONGS;
    long[] array = (long[]) taken(LONG_CLASSES[index], index);
    return array == null ? new long[index * CLASS_LONGS] : array;
  }

  /** An array of at least {@code length} bytes, its contents left as its last holder wrote them. */
  static byte[] takeBytes(int length) {
    if (length <= 0 || length > MAX_POOLED_BYTES) {
      return new byte[length];
    }
    int index = (length + CLASS_BYTES - 1) / CLASS_BYTES;
    byte[] array = (byte[]) taken(BYTE_CLASSES[index], index);
    return array == null ? new byte[index * CLASS_BYTES] : array;
  }

  private static Object taken(FreeArrays free, int index) {
    Object array = free.pop();
    if (array != null) {
      KEPT_BYTES.addAndGet(-(long) index * CLASS_BYTES);
    }
    return array;
  }

  /** Gives back {@code array}, which its holder no longer reads; no-op for one not of a class. */
  static void give(long[] array) {
    kept(LONG_CLASSES, array, (long) array.length * Long.BYTES);
  }

  /** Gives back {@code array}, which its holder no longer reads; no-op for one not of a class. */
  static void giveBytes(byte[] array) {
    kept(BYTE_CLASSES, array, array.length);
  }

  private static void kept(FreeArrays[] classes, Object array, long bytes) {
    if (bytes == 0 || bytes > MAX_POOLED_BYTES || bytes % CLASS_BYTES != 0) {
      return;
    }
    if (KEPT_BYTES.addAndGet(bytes) > MAX_KEPT_BYTES) {
      KEPT_BYTES.addAndGet(-bytes);
      return;
    }
    classes[(int) (bytes / CLASS_BYTES)].push(array);
  }

  /** Bytes of arrays the pool keeps now. */
  public static long keptBytes() {
    return KEPT_BYTES.get();
  }

  /** A stack of the free arrays of one class, grown as needed, under its own lock. */
  private static final class FreeArrays {

    private Object[] arrays = new Object[8];
    private int size;

    synchronized Object pop() {
      if (size == 0) {
        return null;
      }
      Object array = arrays[--size];
      arrays[size] = null;
      return array;
    }

    synchronized void push(Object array) {
      if (size == arrays.length) {
        arrays = Arrays.copyOf(arrays, 2 * size);
      }
      arrays[size++] = array;
    }
  }
}
