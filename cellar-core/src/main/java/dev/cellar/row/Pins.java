package dev.cellar.row;

import dev.cellar.memory.Buf;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The memory a read result keeps alive: one reference to each block (or MemStore chunk) its cells
 * point into, taken once per buffer however many cells point into it, and dropped by {@link
 * #release()}. Not thread-safe: one result, one thread.
 *
 * <p>A result usually pins one or two buffers (a Get pins one block), and one is made per Get or
 * scanned row, so the buffers sit in a small array searched by identity; only a result pinning more
 * than {@value #LINEAR_LIMIT} buffers (a row spread over many blocks) also indexes them in an
 * identity map, so that pinning stays linear in the number of cells.
 *
 * <p><b>Carrying over.</b> A holder reused from row to row (a scan's) can {@link #carryOver} its
 * references to the next row instead of dropping them: the next row takes over, without a new
 * reference, each buffer it pins again, and {@link #releaseCarried} drops the others. Consecutive
 * rows mostly lie in one block, so a scan takes and drops a block's reference once per block rather
 * than once per row.
 */
public final class Pins {

  /** Buffers searched linearly before an identity map takes over. */
  static final int LINEAR_LIMIT = 8;

  private Buf[] pinned = new Buf[2];

  /**
   * The {@link #row} in which each buffer was last pinned: a buffer stamped with an earlier row is
   * carried over and not yet taken over. Made by the first {@link #carryOver}: only a reused scan
   * holder carries over, and a Get's result spares the array.
   */
  private int[] stamps;

  private int row;
  private int size;

  /** Each buffer's position in {@link #pinned}, once there are more than the linear limit. */
  private Map<Buf, Integer> index;

  private boolean released;

  /** Retains {@code buf} unless this result already holds it. */
  public void pin(Buf buf) {
    if (released) {
      throw new IllegalStateException("the result was closed");
    }
    int at = positionOf(buf);
    if (at >= 0) {
      stamp(at);
      return;
    }
    buf.retain();
    append(buf);
  }

  /** Holds {@code buf}, whose reference the caller hands over. */
  private void append(Buf buf) {
    if (size == pinned.length) {
      pinned = Arrays.copyOf(pinned, size * 2);
      if (stamps != null) {
        stamps = Arrays.copyOf(stamps, size * 2);
      }
    }
    stamp(size);
    pinned[size++] = buf;
    if (index != null) {
      index.put(buf, size - 1);
    } else if (size > LINEAR_LIMIT) {
      reindex();
    }
  }

  private int positionOf(Buf buf) {
    if (index != null) {
      Integer at = index.get(buf);
      return at == null ? -1 : at;
    }
    for (int i = size - 1; i >= 0; i--) {
      if (pinned[i] == buf) {
        return i;
      }
    }
    return -1;
  }

  private void reindex() {
    index = new IdentityHashMap<>();
    for (int i = 0; i < size; i++) {
      index.put(pinned[i], i);
    }
  }

  /**
   * Hands every reference this holds over to {@code target} (which drops those of buffers it holds
   * already), leaving this empty: a row detached from a reused holder keeps its blocks without a
   * reference taken and another dropped per block.
   */
  void moveAllInto(Pins target) {
    if (target.released) {
      throw new IllegalStateException("the result was closed");
    }
    for (int i = 0; i < size; i++) {
      Buf buf = pinned[i];
      pinned[i] = null;
      int at = target.positionOf(buf);
      if (at >= 0) {
        target.stamp(at);
        buf.release();
      } else {
        target.append(buf);
      }
    }
    size = 0;
    index = null;
  }

  /**
   * Hands the caller the reference to the one buffer held, leaving this empty; null, with nothing
   * changed, if this holds none or several.
   */
  Buf handOverSole() {
    if (size != 1) {
      return null;
    }
    Buf sole = pinned[0];
    pinned[0] = null;
    size = 0;
    index = null;
    return sole;
  }

  /** Adds to {@code target} a reference of its own to each buffer this holds (none it has). */
  void retainAllInto(Pins target) {
    for (int i = 0; i < size; i++) {
      target.pin(pinned[i]);
    }
  }

  /** The number of buffers held. */
  public int size() {
    return size;
  }

  /**
   * Drops the references taken after the first {@code kept} (the buffers pinned since {@link
   * #size()} was {@code kept}), keeping the others.
   */
  void truncate(int kept) {
    for (int i = size - 1; i >= kept; i--) {
      if (index != null) {
        index.remove(pinned[i]);
      }
      pinned[i].release();
      pinned[i] = null;
    }
    size = Math.min(size, kept);
  }

  /**
   * Keeps every reference for the next row, which takes over those it {@link #pin}s again; {@link
   * #releaseCarried} drops the rest.
   */
  void carryOver() {
    if (stamps == null) {
      stamps = new int[pinned.length];
      Arrays.fill(stamps, 0, size, row);
    }
    row++;
  }

  private void stamp(int at) {
    if (stamps != null) {
      stamps[at] = row;
    }
  }

  /** Drops the references carried over that were not pinned again since {@link #carryOver}. */
  void releaseCarried() {
    if (stamps == null) {
      return;
    }
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (stamps[i] == row) {
        stamps[kept] = row;
        pinned[kept++] = pinned[i];
      } else {
        pinned[i].release();
      }
    }
    if (kept == size) {
      return;
    }
    Arrays.fill(pinned, kept, size, null);
    size = kept;
    if (index != null) {
      reindex();
    }
  }

  /** Drops every reference taken; later calls do nothing, and pinning more is refused. */
  public void release() {
    if (released) {
      return;
    }
    released = true;
    dropAll();
  }

  /** Drops every reference taken and stays usable: a reused row holder's pins start again. */
  public void clear() {
    if (!released) {
      dropAll();
    }
  }

  private void dropAll() {
    for (int i = 0; i < size; i++) {
      pinned[i].release();
      pinned[i] = null;
    }
    size = 0;
    index = null;
  }
}
