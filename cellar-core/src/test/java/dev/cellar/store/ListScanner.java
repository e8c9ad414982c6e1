package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.KeyValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A {@link KeyValueScanner} over heap cells in a sorted list, for tests. */
final class ListScanner implements KeyValueScanner {

  private final List<Cell> cells;
  private final long order;
  private int position = -1;

  ListScanner(List<? extends Cell> cells, long order) {
    this.cells = new ArrayList<>(cells);
    this.cells.sort(CellComparator.INSTANCE);
    this.order = order;
  }

  @Override
  public Cell peek() {
    return position >= 0 && position < cells.size() ? cells.get(position) : null;
  }

  @Override
  public Cell next() {
    if (peek() == null) {
      return null;
    }
    position++;
    return peek();
  }

  @Override
  public boolean seek(Cell key) {
    int found = Collections.binarySearch(cells, key, CellComparator.INSTANCE);
    position = found >= 0 ? found : -found - 1;
    return peek() != null;
  }

  @Override
  public boolean reseek(Cell key) {
    Cell current = peek();
    if (current == null) {
      return false;
    }
    return CellComparator.INSTANCE.compare(current, key) >= 0 || seek(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) {
    int end =
        key == null
            ? cells.size()
            : -Collections.binarySearch(
                    cells, KeyValue.firstOnRow(key.rowArray()), CellComparator.INSTANCE)
                - 1;
    if (end == 0) {
      position = cells.size();
      return false;
    }
    return seek(KeyValue.firstOnRow(cells.get(end - 1).rowArray()));
  }

  @Override
  public long order() {
    return order;
  }

  @Override
  public void close() {
    position = cells.size();
  }
}
