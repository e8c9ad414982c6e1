package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter;
import dev.cellar.row.CollectedRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs a scan the way a region does, over heap cells: each family's cells are dealt at random among
 * several sources (as MemStore and files would hold them), merged by a store scanner per family,
 * and read row by row through a {@link RegionScanner}.
 */
final class ScanHarness {

  private ScanHarness() {}

  /** The rows [start, stop) of {@code cells} in {@code families}, as a region scanner returns. */
  static List<List<Cell>> scan(
      List<? extends Cell> cells,
      byte[][] families,
      int sources,
      ScanSpec spec,
      byte[] start,
      byte[] stop,
      Filter filter,
      SplittableRandom random)
      throws IOException {
    return scan(cells, families, sources, spec, start, stop, false, filter, random);
  }

  /**
   * As {@link #scan(List, byte[][], int, ScanSpec, byte[], byte[], Filter, SplittableRandom)}; with
   * {@code reversed}, the rows from {@code start} (inclusive) down to {@code stop} (exclusive),
   * largest first.
   */
  static List<List<Cell>> scan(
      List<? extends Cell> cells,
      byte[][] families,
      int sources,
      ScanSpec spec,
      byte[] start,
      byte[] stop,
      boolean reversed,
      Filter filter,
      SplittableRandom random)
      throws IOException {
    List<FamilyScanner> stores = new ArrayList<>();
    for (byte[] family : families) {
      List<List<Cell>> parts = new ArrayList<>();
      for (int s = 0; s < sources; s++) {
        parts.add(new ArrayList<>());
      }
      for (Cell cell : cells) {
        if (Bytes.compare(cell.familyArray(), family) == 0) {
          parts.get(random.nextInt(sources)).add(cell);
        }
      }
      List<KeyValueScanner> scanners = new ArrayList<>();
      for (int s = 0; s < sources; s++) {
        scanners.add(new ListScanner(parts.get(s), s));
      }
      stores.add(
          reversed
              ? new ReversedStoreScanner(scanners, spec, start)
              : new StoreScanner(scanners, spec, KeyValue.firstOnRow(start), false));
    }
    List<List<Cell>> rows = new ArrayList<>();
    CollectedRow row = new CollectedRow();
    try (RegionScanner scanner = new RegionScanner(stores, stop, false, reversed, filter)) {
      while (scanner.next(row)) {
        rows.add(row.cells().stream().<Cell>map(KeyValue::copyOf).toList());
        row.clear();
      }
    } finally {
      row.clear();
    }
    return rows;
  }

  /** Each row as its cells' {@link ReadSemanticsOracle#describe descriptions}. */
  static List<List<String>> describe(List<List<Cell>> rows) {
    return rows.stream()
        .map(row -> row.stream().map(ReadSemanticsOracle::describe).toList())
        .toList();
  }
}
