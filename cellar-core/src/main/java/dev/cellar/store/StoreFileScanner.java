package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValue;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.hfile.encoding.BlockSeeker;
import dev.cellar.hfile.encoding.RowCellSink;
import dev.cellar.row.CollectedRow;
import java.io.IOException;

/**
 * A {@link KeyValueScanner} over one HFile, turning {@link HFileScanner}'s "last cell not after"
 * seeks into "first cell not before" ones. Holds one data block at a time through the scanner.
 *
 * <p>{@link #collectCurrent} keeps a cell of an unencoded file as a view of the block it lies in,
 * pinning the block; a cell of a delta-encoded file, whose key lives in the decoder's scratch
 * buffer, has its key copied and its value kept in the block, pinned the same way (the whole cell
 * is copied when its tags were expanded out of a tag dictionary into the decoder's scratch). A
 * bulk-loaded file's cells are presented with the file's sequence id ({@link LoadedCell}). Not
 * thread-safe.
 */
final class StoreFileScanner implements KeyValueScanner {

  private final HFileReader reader;
  private final HFileScanner scanner;
  private final long order;
  private final boolean cacheBlocks;
  private final boolean cellsLieInBlock;
  private final Runnable onClose;

  /** For a bulk-loaded file: the flyweight giving its cells the file's id; else null. */
  private final LoadedCell loaded;

  private Cell current;
  private boolean closed;
  private final BlockViews sink = new BlockViews();

  /** A scanner over {@code reader}'s cells; {@code onClose} runs once when it closes. */
  StoreFileScanner(HFileReader reader, boolean cacheBlocks, long order, Runnable onClose) {
    this(reader, cacheBlocks, order, onClose, -1);
  }

  /**
   * A scanner over {@code reader}'s cells; with {@code loadedSequenceId} >= 0 (a bulk-loaded file)
   * every cell reads with that sequence id.
   */
  StoreFileScanner(
      HFileReader reader,
      boolean cacheBlocks,
      long order,
      Runnable onClose,
      long loadedSequenceId) {
    this.loaded = loadedSequenceId < 0 ? null : new LoadedCell(loadedSequenceId);
    this.reader = reader;
    this.scanner = reader.scanner(cacheBlocks);
    this.cellsLieInBlock = scanner.cellsLieInBlock();
    this.cacheBlocks = cacheBlocks;
    this.order = order;
    this.onClose = onClose;
  }

  /** Whether the data blocks this scanner reads are cached. */
  boolean cachesBlocks() {
    return cacheBlocks;
  }

  @Override
  public Cell peek() {
    return current;
  }

  @Override
  public Cell next() throws IOException {
    if (current == null) {
      return null;
    }
    current = present(scanner.next() ? scanner.current() : null);
    return current;
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    int result = scanner.seekToOrAfter(key);
    boolean positioned =
        switch (result) {
          case HFileScanner.BEFORE_FILE -> scanner.seekTo();
          case HFileScanner.BEFORE_KEY -> scanner.next();
          default -> scanner.isValid();
        };
    current = present(positioned ? scanner.current() : null);
    return current != null;
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    if (current == null) {
      return false;
    }
    if (CellComparator.INSTANCE.compare(current, key) >= 0) {
      return true;
    }
    int result = scanner.reseekTo(key);
    boolean positioned =
        switch (result) {
          case HFileScanner.BEFORE_KEY -> scanner.next();
          case HFileScanner.BEFORE_FILE -> scanner.seekTo();
          default -> scanner.isValid();
        };
    current = present(positioned ? scanner.current() : null);
    return current != null;
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    byte[] row;
    if (key == null) {
      byte[] lastKey = reader.lastKey();
      if (lastKey == null) {
        current = null;
        return false;
      }
      row = HFileReader.keyCell(lastKey).rowArray();
    } else {
      if (!scanner.seekBefore(KeyValue.firstOnRow(key.rowArray()))) {
        current = null;
        return false;
      }
      row = scanner.current().rowArray();
    }
    return seek(KeyValue.firstOnRow(row));
  }

  private Cell present(Cell cell) {
    return loaded == null ? cell : loaded.over(cell);
  }

  @Override
  public long order() {
    return order;
  }

  @Override
  public void collectCurrent(CollectedRow row) {
    collectInto(current, row);
  }

  /** Adds {@code cell}, the current cell as the scanner presents it, to {@code row}. */
  private void collectInto(Cell cell, CollectedRow row) {
    if (cellsLieInBlock) {
      row.addView(cell, scanner.currentBlock().pinnable());
    } else if (cell.tagsLength() == 0 || cell.tagsSegment() == cell.valueSegment()) {
      row.addKeyCopy(cell, scanner.currentBlock().pinnable());
    } else {
      row.addCopy(cell);
    }
  }

  /**
   * Whether {@link #collectLatestPuts} collects rows in place: the file's cells read as they are
   * stored (not a bulk-loaded file's, which take the file's sequence id).
   */
  boolean collectsInPlace() {
    return loaded == null;
  }

  /** Whether this file's cells lie whole in its blocks (an unencoded file's), views of them. */
  boolean cellsLieInBlock() {
    return cellsLieInBlock;
  }

  /**
   * Adds the newest put of each column of the row of {@code rowStart} to {@code out}, from the
   * current cell on, in the block seekers' walk ({@link HFileScanner#collectLatestPuts}), as {@link
   * LatestPutsCollector} does cell by cell; for {@link #collectsInPlace} files only. False, with
   * what it added left in {@code out} and the scanner inside the row, when the row needs the
   * general matcher.
   */
  boolean collectLatestPuts(Cell rowStart, long minTimestamp, long maxTimestamp, CollectedRow out)
      throws IOException {
    sink.start(out);
    int result;
    try {
      result =
          scanner.collectLatestPuts(
              rowStart.segment(),
              rowStart.rowOffset(),
              rowStart.rowLength(),
              minTimestamp,
              maxTimestamp,
              sink);
    } finally {
      sink.start(null);
    }
    current = scanner.isValid() ? scanner.current() : null;
    return result == BlockSeeker.ROW_ENDED;
  }

  /** Keeps the cells a row collection takes as views of the scanner's current block. */
  private final class BlockViews implements RowCellSink {

    private CollectedRow target;
    private int rowStart;

    void start(CollectedRow row) {
      target = row;
      rowStart = row == null ? 0 : row.size();
    }

    @Override
    public void take(Cell cell) {
      collectInto(cell, target);
    }

    @Override
    public Cell lastTaken() {
      int size = target.size();
      return size > rowStart ? target.get(size - 1) : null;
    }
  }

  /**
   * Releases the current block and leaves the scanner unpositioned but reusable (a point read's
   * scanner, kept from read to read, parks itself so between reads it pins nothing).
   */
  void park() {
    current = null;
    scanner.close();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    current = null;
    scanner.close();
    onClose.run();
  }
}
