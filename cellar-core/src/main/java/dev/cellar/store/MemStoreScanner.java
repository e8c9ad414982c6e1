package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.memory.Buf;
import dev.cellar.row.CollectedRow;
import dev.cellar.store.memstore.CellCursor;

/**
 * A {@link KeyValueScanner} over one MemStore segment's cursor. The cursor keeps the segment's
 * memory alive until it closes; a cell kept beyond that (a returned row) is taken by {@link
 * #collectCurrent} as a view pinning the segment's MSLAB, whose chunks are recycled only once the
 * last pin is dropped, or copied when it lies on the heap (MSLAB off, or a cell too large for a
 * chunk). Not thread-safe.
 */
final class MemStoreScanner implements KeyValueScanner {

  private final CellCursor cursor;
  private final long order;

  MemStoreScanner(CellCursor cursor, long order) {
    this.cursor = cursor;
    this.order = order;
  }

  @Override
  public Cell peek() {
    return cursor.peek();
  }

  @Override
  public Cell next() {
    cursor.next();
    return cursor.peek();
  }

  @Override
  public boolean seek(Cell key) {
    return cursor.seek(key);
  }

  @Override
  public boolean reseek(Cell key) {
    return cursor.reseek(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) {
    return cursor.seekToPreviousRow(key);
  }

  /** A view pinning the MSLAB where the cell lies in one of its chunks, else a copy. */
  @Override
  public void collectCurrent(CollectedRow row) {
    Buf pin = cursor.pinOfCurrent();
    if (pin != null) {
      row.addView(cursor.peek(), pin);
    } else {
      row.addCopy(cursor.peek());
    }
  }

  @Override
  public long order() {
    return order;
  }

  @Override
  public void close() {
    cursor.close();
  }
}
