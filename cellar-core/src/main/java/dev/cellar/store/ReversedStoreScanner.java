package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One family's rows from the largest down, as HBase's ReversedStoreScanner: each source sits on
 * the first cell of its own current row (the largest not yet returned); the family's next row is
 * the largest of those. The row itself is read forward, with the same matcher as a forward scan,
 * through a heap over the sources on that row; afterwards those sources step back to their
 * previous row. Not thread-safe.
 */
final class ReversedStoreScanner implements FamilyScanner {

  private final List<KeyValueScanner> sources = new ArrayList<>();
  private final RowSifter sifter;

  /**
   * Positions {@code sources} (taken over) on their last row not after {@code startRow} (empty:
   * their last row). If a seek fails, every source not closed yet is closed before the failure
   * is thrown.
   */
  ReversedStoreScanner(List<? extends KeyValueScanner> sources, ScanSpec spec, byte[] startRow)
      throws IOException {
    this.sifter = new RowSifter(spec);
    Cell bound = startRow.length == 0 ? null : KeyValue.firstOnRow(Region.rowAfter(startRow));
    int positioned = 0;
    try {
      for (KeyValueScanner source : sources) {
        if (source.seekToPreviousRow(bound)) {
          this.sources.add(source);
        } else {
          source.close();
        }
        positioned++;
      }
    } catch (IOException | RuntimeException e) {
      this.sources.forEach(KeyValueScanner::close);
      sources.subList(positioned, sources.size()).forEach(KeyValueScanner::close);
      throw e;
    }
  }

  @Override
  public Cell peek() {
    Cell largest = null;
    for (KeyValueScanner source : sources) {
      Cell cell = source.peek();
      if (largest == null || CellComparator.compareRows(cell, largest) > 0) {
        largest = cell;
      }
    }
    return largest;
  }

  /** The sources on the largest row, and that row. */
  private List<KeyValueScanner> onLargestRow(byte[][] row) {
    Cell largest = peek();
    List<KeyValueScanner> onRow = new ArrayList<>();
    for (KeyValueScanner source : sources) {
      if (CellComparator.compareRows(source.peek(), largest) == 0) {
        onRow.add(source);
      }
    }
    row[0] = largest.rowArray();
    return onRow;
  }

  @Override
  public void collectRow(CollectedRow out) throws IOException {
    byte[][] row = new byte[1][];
    List<KeyValueScanner> onRow = onLargestRow(row);
    try (KeyValueHeap heap = new KeyValueHeap(onRow, false)) {
      sifter.collectRow(heap, out, false);
    }
    stepBack(onRow, row[0]);
  }

  @Override
  public void skipRow() throws IOException {
    byte[][] row = new byte[1][];
    stepBack(onLargestRow(row), row[0]);
  }

  private void stepBack(List<KeyValueScanner> onRow, byte[] row) throws IOException {
    KeyValue rowStart = KeyValue.firstOnRow(row);
    for (KeyValueScanner source : onRow) {
      if (!source.seekToPreviousRow(rowStart)) {
        sources.remove(source);
        source.close();
      }
    }
  }

  @Override
  public void close() {
    for (KeyValueScanner source : sources) {
      source.close();
    }
    sources.clear();
  }
}
