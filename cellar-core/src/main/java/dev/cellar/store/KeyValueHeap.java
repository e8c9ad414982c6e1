package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.row.CollectedRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges several {@link KeyValueScanner}s into one forward sorted stream, as HBase's KeyValueHeap:
 * the scanner with the smallest current cell is on top; among equal cells the newer source (higher
 * {@link KeyValueScanner#order()}) comes first. The current scanner is kept out of the priority
 * queue, so a run of cells from one source costs one comparison per cell rather than a heap
 * operation. An owning heap closes exhausted scanners at once. Not thread-safe.
 */
final class KeyValueHeap implements AutoCloseable {

  private static final Comparator<KeyValueScanner> BY_CURRENT_CELL =
      (left, right) -> {
        int byCell = CellComparator.INSTANCE.compare(left.peek(), right.peek());
        return byCell != 0 ? byCell : Long.compare(right.order(), left.order());
      };

  private final PriorityQueue<KeyValueScanner> heap;
  private final List<KeyValueScanner> all;
  private final boolean owns;
  private final List<KeyValueScanner> moving = new ArrayList<>();
  private KeyValueScanner current;

  /**
   * An empty heap that never closes its scanners, to be {@link #reset} for every read: the merge of
   * a point read that reuses its heap, so that merging allocates nothing.
   */
  KeyValueHeap() {
    this(List.of(), false);
  }

  /** Merges {@code scanners}, which must be positioned already (by a seek); takes them over. */
  KeyValueHeap(List<? extends KeyValueScanner> scanners) {
    this(scanners, true);
  }

  /**
   * Merges {@code scanners}; with {@code owns} false they are neither closed when exhausted nor by
   * {@link #close()} (a reversed scan merges one row at a time and moves them back afterwards).
   */
  KeyValueHeap(List<? extends KeyValueScanner> scanners, boolean owns) {
    this.owns = owns;
    this.all = new ArrayList<>(scanners);
    this.heap = new PriorityQueue<>(Math.max(1, scanners.size()), BY_CURRENT_CELL);
    for (KeyValueScanner scanner : scanners) {
      if (scanner.peek() != null) {
        heap.add(scanner);
      } else {
        retire(scanner);
      }
    }
    current = heap.poll();
  }

  /**
   * Merges {@code scanners} afresh (positioned already; a heap made by {@link #KeyValueHeap()}
   * only): forgets the previous ones without closing them.
   */
  void reset(List<? extends KeyValueScanner> scanners) {
    if (owns) {
      throw new IllegalStateException("an owning heap is not reset");
    }
    heap.clear();
    all.clear();
    for (int i = 0; i < scanners.size(); i++) {
      KeyValueScanner scanner = scanners.get(i);
      all.add(scanner);
      if (scanner.peek() != null) {
        heap.add(scanner);
      }
    }
    current = heap.poll();
  }

  private void retire(KeyValueScanner scanner) {
    if (owns) {
      scanner.close();
    }
  }

  /** The smallest current cell, or null when every source is exhausted. */
  Cell peek() {
    return current == null ? null : current.peek();
  }

  /**
   * The one source left, when every other is exhausted (or there was only one), for a caller that
   * moves it by itself and then calls {@link #sourceMoved}; else null.
   */
  KeyValueScanner onlySource() {
    return heap.isEmpty() ? current : null;
  }

  /** Takes note that the {@link #onlySource} moved: retires it if it is exhausted. */
  void sourceMoved() {
    if (current != null && current.peek() == null) {
      retire(current);
      current = null;
    }
  }

  /** Moves past the current cell; returns the new smallest cell or null. */
  Cell next() throws IOException {
    if (current == null) {
      return null;
    }
    if (current.next() == null) {
      retire(current);
      current = heap.poll();
    } else {
      KeyValueScanner top = heap.peek();
      if (top != null && BY_CURRENT_CELL.compare(current, top) > 0) {
        heap.add(current);
        current = heap.poll();
      }
    }
    return peek();
  }

  /** Positions every source on the first cell not before {@code key}. */
  boolean seek(Cell key) throws IOException {
    return reposition(key, false);
  }

  /** As {@link #seek}, forward only. */
  boolean reseek(Cell key) throws IOException {
    return reposition(key, true);
  }

  private boolean reposition(Cell key, boolean forward) throws IOException {
    moving.clear();
    if (current != null) {
      moving.add(current);
    }
    while (!heap.isEmpty()) {
      moving.add(heap.poll());
    }
    current = null;
    for (int i = 0; i < moving.size(); i++) {
      KeyValueScanner scanner = moving.get(i);
      boolean positioned = forward ? scanner.reseek(key) : scanner.seek(key);
      if (positioned) {
        heap.add(scanner);
      } else {
        retire(scanner);
      }
    }
    moving.clear();
    current = heap.poll();
    return current != null;
  }

  /** Adds the current cell to {@code row} (see {@link KeyValueScanner#collectCurrent}). */
  void collectCurrent(CollectedRow row) {
    current.collectCurrent(row);
  }

  @Override
  public void close() {
    if (owns) {
      for (KeyValueScanner scanner : all) {
        scanner.close();
      }
    }
    heap.clear();
    current = null;
  }
}
