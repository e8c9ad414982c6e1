package dev.cellar.row;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.memory.Buf;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The cells of one row read, held for reuse: the row holder of the read path that allocates nothing
 * once it has grown to the largest row it held.
 *
 * <p><b>Memory.</b> A cell that lies whole in a cached block stays there: the holder pins the block
 * (one reference per block, however many cells) and keeps a flyweight view of the cell. A cell
 * whose bytes would not outlive the cursor (a MemStore cell, whose chunk is recycled after a flush)
 * is copied into the holder's heap arena, an array that grows to the largest row and is reused; a
 * copied cell pins nothing. A cell of a delta-encoded block, whose key is rebuilt in the decoder's
 * scratch buffer but whose value lies whole in the block, has only its key copied into the arena
 * and keeps its value and tags where they lie, pinning the block ({@link #addKeyCopy}): a Get of
 * ten 100-byte columns copies their keys, not their kilobyte of values. {@link #clear()} drops the
 * pins and forgets the cells: the views it handed out are then invalid, and reading them is the
 * caller's bug (the owner of this holder refuses access after that point). Cells removed through
 * {@link #cells()} (a whole-row filter) keep their block pinned until the clear.
 *
 * <p>Not thread-safe: one reader thread owns it.
 */
public final class CollectedRow {

  private static final int INITIAL_ARENA = 4096;
  private static final MemorySegment NO_ARENA = MemorySegment.ofArray(Bytes.EMPTY);

  private final Pins pins = new Pins();

  /** What each held cell is: a {@link #VIEW}, a {@link #COPY} or a {@link #KEY_COPY}. */
  private static final byte VIEW = 0;

  private static final byte COPY = 1;
  private static final byte KEY_COPY = 2;

  /** The flyweights of views and copies, by position. */
  private KeyValueCell[] cells = new KeyValueCell[4];

  /** The flyweights of key copies, by position; made at the first key copy. */
  private CopiedKeyCell[] keyCopies;

  private byte[] kinds = new byte[4];
  private int size;

  /** Made on the first copy: a holder of views only (a scan of unencoded files) never needs one. */
  private byte[] arena = Bytes.EMPTY;

  private MemorySegment arenaSegment = NO_ARENA;
  private int arenaUsed;
  private final List<Cell> list = new CellList();

  public CollectedRow() {
    for (int i = 0; i < cells.length; i++) {
      cells[i] = new KeyValueCell();
    }
  }

  /**
   * Adds a view of {@code cell}, which lies whole in {@code block}, pinning the block (a reference
   * of the holder's own, dropped by {@link #clear()}). A cursor's own view is copied as it is, its
   * lengths checked already.
   */
  public void addView(Cell cell, Buf block) {
    pins.pin(block);
    int index = next(VIEW);
    if (cell instanceof KeyValueCell view) {
      cells[index].set(view);
    } else {
      cells[index].reset(
          cell.segment(), cell.offset(), cell.length(), hasTagsSection(cell), cell.sequenceId());
    }
  }

  /** Adds a copy of {@code cell} in the arena. */
  public void addCopy(Cell cell) {
    int length = cell.length();
    int at = reserve(length);
    KeyValue.writeTo(cell, arenaSegment, at);
    int index = next(COPY);
    cells[index].reset(arenaSegment, at, length, hasTagsSection(cell), cell.sequenceId());
  }

  /**
   * Adds {@code cell}, whose value and tags lie in {@code block}, with its key (and length fields)
   * copied into the arena and its value and tags left in the block, which it pins as {@link
   * #addView} does.
   */
  public void addKeyCopy(Cell cell, Buf block) {
    pins.pin(block);
    int header = (int) (cell.keyOffset() - cell.offset());
    int length = header + cell.keyLength();
    int at = reserve(length);
    MemorySegment.copy(cell.segment(), ValueLayout.JAVA_BYTE, cell.offset(), arena, at, length);
    if (keyCopies == null) {
      keyCopies = new CopiedKeyCell[cells.length];
      for (int i = 0; i < keyCopies.length; i++) {
        keyCopies[i] = new CopiedKeyCell();
      }
    }
    int index = next(KEY_COPY);
    keyCopies[index].set(arenaSegment, at, cell, hasTagsSection(cell));
  }

  /**
   * Returns where {@code length} free bytes of the arena start, taking them; a new, larger arena
   * when the current one is short (the cells already copied keep the old one).
   */
  private int reserve(int length) {
    if (arena.length - arenaUsed < length) {
      arena = new byte[Math.max(length, Math.max(INITIAL_ARENA, 2 * arena.length))];
      arenaSegment = MemorySegment.ofArray(arena);
      arenaUsed = 0;
    }
    int at = arenaUsed;
    arenaUsed += length;
    return at;
  }

  private static boolean hasTagsSection(Cell cell) {
    return cell.length() > 2 * Integer.BYTES + cell.keyLength() + cell.valueLength();
  }

  /** Takes the next position for a cell of {@code kind}; returns it. */
  private int next(byte kind) {
    if (size == cells.length) {
      cells = Arrays.copyOf(cells, 2 * size);
      kinds = Arrays.copyOf(kinds, 2 * size);
      for (int i = size; i < cells.length; i++) {
        cells[i] = new KeyValueCell();
      }
      if (keyCopies != null) {
        keyCopies = Arrays.copyOf(keyCopies, 2 * size);
        for (int i = size; i < keyCopies.length; i++) {
          keyCopies[i] = new CopiedKeyCell();
        }
      }
    }
    kinds[size] = kind;
    return size++;
  }

  /** The number of cells held. */
  public int size() {
    return size;
  }

  /** The cell at {@code index}: a view valid until {@link #clear()}. */
  public Cell get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("cell " + index + " of a row of " + size);
    }
    return kinds[index] == KEY_COPY ? keyCopies[index] : cells[index];
  }

  /**
   * The cells as a list (one reused object), views valid until {@link #clear()}; cells may be
   * removed from it (and from its sub-lists), not added or replaced.
   */
  public List<Cell> cells() {
    return list;
  }

  /**
   * Whether the cell at {@code index} is a view of a pinned block (its memory lives as long as a
   * reference to that block), rather than a copy in the heap arena, reused after {@link #clear()}.
   */
  public boolean isView(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("cell " + index + " of a row of " + size);
    }
    return kinds[index] == VIEW;
  }

  /** Whether any cell held is a view of a pinned block ({@link #isView}). */
  public boolean holdsViews() {
    for (int i = 0; i < size; i++) {
      if (kinds[i] == VIEW) {
        return true;
      }
    }
    return false;
  }

  /**
   * Adds to {@code target} a reference of its own to each block this holder pins, which outlives
   * {@link #clear()}; {@code target} drops it when released.
   */
  public void retainPinsInto(Pins target) {
    pins.retainAllInto(target);
  }

  /** The number of blocks pinned. */
  public int pinnedBuffers() {
    return pins.size();
  }

  /**
   * Drops the pins taken since {@link #pinnedBuffers()} was {@code kept}, when no cell held points
   * into those blocks any more (a row a filter emptied gives back what it pinned).
   */
  public void unpinAfter(int kept) {
    pins.truncate(kept);
  }

  /**
   * The cells in a form that outlives {@link #clear()}: a view of a block as a new view of the same
   * memory, the block's pin moved into {@code target}; a copied cell as a heap {@link KeyValue}.
   * The caller clears this holder afterwards (it holds no pins any more).
   */
  public List<Cell> detach(Pins target) {
    movePinsInto(target);
    return detachCells();
  }

  /** Moves every pin of this holder into {@code target}, which keeps one per buffer. */
  public void movePinsInto(Pins target) {
    pins.moveAllInto(target);
  }

  /**
   * The cells detached as by {@link #detach(Pins)}, the pins left here: the caller takes them over
   * ({@link #handOverSolePin()}, {@link #movePinsInto(Pins)}) or they are dropped by {@link
   * #clear()}.
   */
  public List<Cell> detachCells() {
    if (size == 1) {
      return List.of(detached(0));
    }
    Cell[] detached = new Cell[size];
    for (int i = 0; i < size; i++) {
      detached[i] = detached(i);
    }
    return List.of(detached);
  }

  /**
   * Hands the caller this holder's reference to the one buffer it pins, leaving it none; null, with
   * nothing changed, if it pins none or several. A Get's detached row most often points into one
   * block, which its result then holds without a {@link Pins} of its own.
   */
  public Buf handOverSolePin() {
    return pins.handOverSole();
  }

  private Cell detached(int index) {
    return kinds[index] == VIEW ? cells[index].duplicate() : KeyValue.copyOf(get(index));
  }

  /**
   * Forgets the cells after the first {@code kept}, as if they had never been added; their pins and
   * arena space stay taken until {@link #clear()} (a read that changed its mind about a row).
   */
  public void truncate(int kept) {
    if (kept < 0 || kept > size) {
      throw new IndexOutOfBoundsException("keep " + kept + " cells of " + size);
    }
    size = kept;
  }

  /** Drops the pins and forgets the cells, keeping the storage for the next row. */
  public void clear() {
    pins.clear();
    size = 0;
    arenaUsed = 0;
  }

  /**
   * Forgets the cells but carries their blocks' pins over to the next row, which takes over those
   * it pins again (see {@link Pins}); {@link #releaseCarriedPins()} drops the others once that row
   * is read. The cells handed out are invalid from now on, as after {@link #clear()}.
   */
  public void clearCarryingPins() {
    pins.carryOver();
    size = 0;
    arenaUsed = 0;
  }

  /** Drops the pins carried over by {@link #clearCarryingPins()} that the new row did not take. */
  public void releaseCarriedPins() {
    pins.releaseCarried();
  }

  /**
   * Forgets the cells in {@code [from, to)}, keeping the rest in order; the flyweights removed are
   * kept for reuse after the last cell.
   */
  private void removeRange(int from, int to) {
    int removed = to - from;
    if (removed <= 0) {
      return;
    }
    rotateOut(cells, from, to);
    if (keyCopies != null) {
      rotateOut(keyCopies, from, to);
    }
    System.arraycopy(kinds, to, kinds, from, size - to);
    size -= removed;
  }

  /**
   * Moves {@code flyweights[to, size)} to {@code from} and the removed ones after them, so that
   * every flyweight stays in the array once.
   */
  private <T> void rotateOut(T[] flyweights, int from, int to) {
    T[] spare = Arrays.copyOfRange(flyweights, from, to);
    System.arraycopy(flyweights, to, flyweights, from, size - to);
    System.arraycopy(spare, 0, flyweights, size - (to - from), to - from);
  }

  /** The held cells as a list, without copying; removal is supported, for whole-row filters. */
  private final class CellList extends AbstractList<Cell> implements RandomAccess {
    @Override
    public Cell get(int index) {
      return CollectedRow.this.get(index);
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public Cell remove(int index) {
      Cell removed = CollectedRow.this.get(index);
      removeRange(index, index + 1);
      modCount++;
      return removed;
    }

    @Override
    protected void removeRange(int fromIndex, int toIndex) {
      CollectedRow.this.removeRange(fromIndex, toIndex);
      modCount++;
    }
  }
}
