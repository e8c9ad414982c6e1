package dev.cellar.store;

import dev.cellar.memory.Buf;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The memory a read result keeps alive: one reference to each block (or MemStore chunk) its
 * cells point into, taken once per buffer however many cells point into it, and dropped by {@link
 * #release()}. Not thread-safe: one result, one thread.
 *
 * <p>A result usually pins one or two buffers (a Get pins one block), and one is made per Get or
 * scanned row, so the buffers sit in a small array searched by identity; only a result pinning
 * more than {@value #LINEAR_LIMIT} buffers (a row spread over many blocks) also indexes them in an
 * identity map, so that pinning stays linear in the number of cells.
 */
public final class Pins {

  /** Buffers searched linearly before an identity map takes over. */
  static final int LINEAR_LIMIT = 8;

  private Buf[] pinned = new Buf[2];
  private int size;
  private Map<Buf, Boolean> index;
  private boolean released;

  /** Retains {@code buf} unless this result already holds it. */
  public void pin(Buf buf) {
    if (released) {
      throw new IllegalStateException("the result was closed");
    }
    if (holds(buf)) {
      return;
    }
    buf.retain();
    if (size == pinned.length) {
      pinned = Arrays.copyOf(pinned, size * 2);
    }
    pinned[size++] = buf;
    if (index != null) {
      index.put(buf, Boolean.TRUE);
    } else if (size > LINEAR_LIMIT) {
      index = new IdentityHashMap<>();
      for (int i = 0; i < size; i++) {
        index.put(pinned[i], Boolean.TRUE);
      }
    }
  }

  private boolean holds(Buf buf) {
    if (index != null) {
      return index.containsKey(buf);
    }
    for (int i = size - 1; i >= 0; i--) {
      if (pinned[i] == buf) {
        return true;
      }
    }
    return false;
  }

  /** Pins every buffer this holds into {@code target} as well (each retained for it). */
  void pinAllInto(Pins target) {
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
