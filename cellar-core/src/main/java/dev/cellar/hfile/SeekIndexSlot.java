package dev.cellar.hfile;

import dev.cellar.hfile.encoding.SeekIndex;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The {@link SeekIndex} of one data block object: built at most once, by one of its readers, and
 * then used by every reader the object is handed to.
 *
 * <p><b>Which blocks are indexed.</b> The reader whose seek is the third one into a block object
 * builds its index (the eighth when the block's seeks have its file's sparse index meanwhile,
 * {@link LeftOutSeekIndexes}: in a churning cache most blocks are dropped before that, and those
 * seeks cost a few more cells decoded, not a pass over the block). Blocks that many readers share
 * are so indexed early and once: an L1 entry, an off-heap or heap L2 entry's zero-copy block (built
 * once per entry), a block waiting in the L2's write queue. A block read for one reader and sought
 * once, as a point read reads an uncached block or an L2 file engine's per-read copy, costs no pass
 * over its cells; nor does a cached block sought only twice, as most are in a cache holding a third
 * of what is read at random (a build passes over every cell of the block, a seek without the index
 * over half of them on average): small rows read so ran about 5% faster and allocated 53 fewer
 * bytes per get than with a build at the second seek.
 *
 * <p><b>Concurrency.</b> A state word counts the seeks, {@code 0, 1, 2, ...}, then moves {@code
 * BUILDING -> DONE -> RECYCLED} (the last at most once, when the block's memory is freed): the
 * seeks before the building one move it on by one, the seek whose compare-and-set moves it from the
 * count before the building seek to BUILDING builds the index and publishes it (release), and
 * readers load it with acquire semantics; the index is immutable, so a reader that sees it sees it
 * whole. Readers that find no index, while it is being built or for good, seek without one. Seeks
 * racing on one state both see it, which only delays the build by a seek. A build that fails (a
 * malformed block) publishes no index and the state still reaches DONE, so it is never tried again
 * on that object.
 *
 * <p><b>Memory.</b> The slot is no object of its own: {@link HFileBlock} extends it, so its two
 * fields lie in the block object. The index is on the heap, within its encoding's {@link
 * dev.cellar.hfile.encoding.Encodings#maxSeekIndexHeapSize} of the block's payload, which {@link
 * HFileBlock#heapSize()} counts up front; the block object hands it back at its last release (an
 * evicted cache entry, a released read), so that its memory serves the next index built.
 */
class SeekIndexSlot {

  /** The seek that builds the index of a block sought without one. */
  static final int BUILDING_SEEK = 3;

  /** The seek that builds the index of a block sought with its file's sparse one meanwhile. */
  static final int BUILDING_SEEK_AFTER_SPARSE = 8;

  private static final int FRESH = 0;
  private static final int BUILDING = 1 << 16;
  private static final int DONE = BUILDING + 1;
  private static final int RECYCLED = BUILDING + 2;

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

  /** A slot with no index yet (a block object is its own: {@link HFileBlock}). */
  SeekIndexSlot() {}

  /** The index, or null if none was built (yet). */
  SeekIndex get() {
    return (SeekIndex) INDEX.getAcquire(this);
  }

  /**
   * Records a seek into the block; returns true if it is seek {@code buildingSeek} (or a later one
   * while none built), when the caller is to build the index now and then {@link #publish} it
   * (whether or not it could build one).
   */
  boolean claim(int buildingSeek) {
    int current = (int) STATE.getAcquire(this);
    if (current >= BUILDING) {
      return false;
    }
    if (current + 1 < buildingSeek) {
      STATE.compareAndSet(this, current, current + 1);
      return false;
    }
    return STATE.compareAndSet(this, current, BUILDING);
  }

  /** Publishes the index built after a successful {@link #claim}; null if none could be. */
  void publish(SeekIndex built) {
    INDEX.setRelease(this, built);
    STATE.setRelease(this, DONE);
  }

  /**
   * Empties the slot of a block object reused for another block: called by the only holder of the
   * object, after {@link #recycleOnce()} ran for the block before (if it had an index).
   */
  void resetSlot() {
    INDEX.setRelease(this, null);
    STATE.setRelease(this, FRESH);
  }

  /**
   * Recycles the index ({@link SeekIndex#recycle}) once the block's memory is freed and no reader
   * holds the block: the first call after the index was published does it, any other call nothing
   * (a block freed both through itself and through its cache's entry is recycled once).
   */
  void recycleOnce() {
    if (STATE.compareAndSet(this, DONE, RECYCLED)) {
      SeekIndex built = (SeekIndex) INDEX.getAcquire(this);
      INDEX.setRelease(this, null);
      if (built != null) {
        built.recycle();
      }
    }
  }
}
