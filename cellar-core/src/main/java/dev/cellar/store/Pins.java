package dev.cellar.store;

import dev.cellar.memory.Buf;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory a read result keeps alive: one reference to each block (or MemStore chunk) its
 * cells point into, taken once per buffer however many cells point into it, and dropped by {@link
 * #release()}. Not thread-safe: one result, one thread.
 */
public final class Pins {

  private final Map<Buf, Boolean> pinned = new IdentityHashMap<>();
  private final List<Buf> order = new ArrayList<>();
  private boolean released;

  /** Retains {@code buf} unless this result already holds it. */
  public void pin(Buf buf) {
    if (released) {
      throw new IllegalStateException("the result was closed");
    }
    if (pinned.putIfAbsent(buf, Boolean.TRUE) == null) {
      buf.retain();
      order.add(buf);
    }
  }

  /** The number of buffers held. */
  public int size() {
    return order.size();
  }

  /** Drops every reference taken; later calls do nothing. */
  public void release() {
    if (released) {
      return;
    }
    released = true;
    for (Buf buf : order) {
      buf.release();
    }
    order.clear();
    pinned.clear();
  }
}
