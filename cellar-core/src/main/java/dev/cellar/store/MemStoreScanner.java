package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.store.memstore.CellCursor;

/**
 * A {@link KeyValueScanner} over one MemStore segment's cursor. The cursor keeps the segment's
 * memory alive until it closes; a cell kept beyond that (a returned row) is copied by {@link
 * #collectCurrent}, since MemStore chunks are recycled after a flush. Not thread-safe.
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

  @Override
  public long order() {
    return order;
  }

  @Override
  public void close() {
    cursor.close();
  }
}
