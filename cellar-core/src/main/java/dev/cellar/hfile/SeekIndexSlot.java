package dev.cellar.hfile;

import dev.cellar.hfile.encoding.SeekIndex;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The {@link SeekIndex} of one data block's bytes: built at most once, by the first reader that
 * seeks into them, and then used by every reader of every block object over the same bytes.
 *
 * <p><b>Which blocks are indexed.</b> Every block sought is indexed by its first seek, and the
 * copies made of a block ({@link HFileBlock#withBuf}: the L1's heap copy of a block just read)
 * share its slot, so a block read on a cache miss is indexed once by the reader that missed and its
 * cached copy starts with the index. A walk that only reads the cells' lengths and a binary search
 * cost less than a seek that compares the key with every cell on its way, which is what a block
 * sought without an index costs: on a 64 KiB block of small cells (hundreds of them) the compares
 * made a cache miss's seek several times the index build.
 *
 * <p><b>Concurrency.</b> A state word moves {@code FRESH -> BUILDING -> DONE}: the seek whose
 * compare-and-set moves it from FRESH to BUILDING builds the index and publishes it (release), and
 * readers load it with acquire semantics; the index is immutable, so a reader that sees it sees it
 * whole. Readers that find no index while it is being built seek without one. A build that fails (a
 * malformed block) publishes no index and the state still reaches DONE, so it is never tried again
 * on those bytes.
 *
 * <p><b>Memory.</b> The index is on the heap, within its encoding's {@link
 * dev.cellar.hfile.encoding.DataBlockEncoding#maxSeekIndexHeapSize} of the block's payload, which
 * {@link HFileBlock#heapSize()} counts up front; it is garbage once every block object sharing the
 * slot is (an evicted cache entry, a released read).
 */
final class SeekIndexSlot {

  private static final int FRESH = 0;
  private static final int BUILDING = 1;
  private static final int DONE = 2;

  private static final VarHandle STATE;
  private static final VarHandle INDEX;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(SeekIndexSlot.class, "state", int.class);
      INDEX = lookup.findVarHandle(SeekIndexSlot.class, "index", SeekIndex.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused")
  private int state;
  @SuppressWarnings("unused")
  private SeekIndex index;

  /** A slot with no index yet. */
  SeekIndexSlot() {}

  /** The index, or null if none was built (yet). */
  SeekIndex get() {
    return (SeekIndex) INDEX.getAcquire(this);
  }

  /**
   * Records a seek into the block; returns true if the caller is to build the index now and then
   * {@link #publish} it (whether or not it could build one).
   */
  boolean claim() {
    return (int) STATE.getAcquire(this) == FRESH && STATE.compareAndSet(this, FRESH, BUILDING);
  }

  /** Publishes the index built after a successful {@link #claim()}; null if none could be. */
  void publish(SeekIndex built) {
    INDEX.setRelease(this, built);
    STATE.setRelease(this, DONE);
  }
}
