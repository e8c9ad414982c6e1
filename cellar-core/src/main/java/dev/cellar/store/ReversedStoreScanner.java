package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValue;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.RowBudget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One family's rows from the largest down, as HBase's ReversedStoreScanner: each source sits on the
 * first cell of its own current row (the largest not yet returned); the family's next row is the
 * largest of those. The row itself is read forward, with the same matcher as a forward scan,
 * through a heap over the sources on that row; afterwards those sources step back to their previous
 * row. A part read that stops inside a row keeps that heap for the next call. Not thread-safe.
 */
final class ReversedStoreScanner implements FamilyScanner {

  private final List<KeyValueScanner> sources = new ArrayList<>();
  private final RowSifter sifter;

  /**
   * While a row is read: the heap over the sources on it, those sources and the row (kept from one
   * call to the next when a part read stops inside the row); null between rows.
   */
  private KeyValueHeap rowHeap;

  private List<KeyValueScanner> onRow;
  private byte[] row;

  /**
   * Positions {@code sources} (taken over) on their last row not after {@code startRow} (empty:
   * their last row). If a seek fails, every source not closed yet is closed before the failure is
   * thrown.
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
  public boolean collectRow(CollectedRow out, RowBudget budget) throws IOException {
    if (rowHeap == null) {
      byte[][] row = new byte[1][];
      onRow = onLargestRow(row);
      this.row = row[0];
      rowHeap = new KeyValueHeap(onRow, false);
    }
    if (!sifter.collectRow(rowHeap, out, false, budget)) {
      return false;
    }
    rowHeap.close();
    rowHeap = null;
    stepBack(onRow, row);
    return true;
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
    if (rowHeap != null) {
      rowHeap.close();
      rowHeap = null;
    }
    for (KeyValueScanner source : sources) {
      source.close();
    }
    sources.clear();
  }
}
