package dev.cellar;

import dev.cellar.store.Pins;

/**
 * SPI for code that sends cells straight from cached block memory (a server writing a response
 * without copying the values): references to the blocks one or more {@link RowView}s pin, taken
 * with {@link RowView#retainPinsInto} so that the cells {@link RowView#isInPinnedBlock lying in
 * those blocks} stay readable after the view moves on to its next row or its reader closes.
 *
 * <p><b>Ownership.</b> Whoever made a {@code RowPins} owns it and must {@link #release()} it
 * exactly once (later calls do nothing) when nothing reads the cells any more, for instance when
 * the bytes have been written to a socket or the write failed; until then the blocks stay in memory
 * even if the cache evicts them. A block is referenced once however many rows lie in it.
 *
 * <p><b>Threads.</b> Not thread-safe: filled by the reading thread, then handed over (through
 * something that orders memory, such as a queue or a channel's write) to the thread that releases
 * it.
 */
public final class RowPins {

  private final Pins pins = new Pins();

  /** An empty set, for {@link RowView#retainPinsInto} to fill. */
  public RowPins() {}

  /** The number of blocks referenced. */
  public int size() {
    return pins.size();
  }

  /** Adds a reference to each block of {@code view}'s row (used by {@link RowView}). */
  void retain(dev.cellar.store.CollectedRow row) {
    row.retainPinsInto(pins);
  }

  /** Drops every reference; the cells read through them must not be read any more. */
  public void release() {
    pins.release();
  }
}
