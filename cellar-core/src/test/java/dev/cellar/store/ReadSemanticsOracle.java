package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a user scan must return, computed the slow, obvious way from every cell written: per row,
 * family and column, the puts not masked by a delete marker, inside the time range and not expired
 * (beyond the minimum versions), newest first, one per timestamp (the last written), up to the
 * maximum versions.
 */
public final class ReadSemanticsOracle {

  private ReadSemanticsOracle() {}

  /** The rows in [startRow, stopRow) (empty stop: to the end), each as its cells' descriptions. */
  public static List<List<String>> scan(
      List<? extends Cell> written, ScanSpec spec, byte[] startRow, byte[] stopRow) {
    return ScanHarness.describe(scanCells(written, spec, startRow, stopRow));
  }

  /** The rows in [startRow, stopRow) (empty stop: to the end), each as its cells in scan order. */
  public static List<List<Cell>> scanCells(
      List<? extends Cell> written, ScanSpec spec, byte[] startRow, byte[] stopRow) {
    long oldest = spec.oldestUnexpiredTimestamp();
    TreeMap<String, List<Cell>> byColumn = new TreeMap<>();
    List<Cell> sorted = new ArrayList<>(written);
    sorted.sort(CellComparator.INSTANCE);
    for (Cell cell : sorted) {
      if (Bytes.compare(cell.rowArray(), startRow) < 0
          || (stopRow.length > 0 && Bytes.compare(cell.rowArray(), stopRow) >= 0)) {
        continue;
      }
      byColumn.computeIfAbsent(familyKey(cell), k -> new ArrayList<>()).add(cell);
    }
    TreeMap<String, List<Cell>> rows = new TreeMap<>();
    for (List<Cell> family : byColumn.values()) {
      long familyDelete = Long.MIN_VALUE;
      Set<Long> familyVersionDeletes = new HashSet<>();
      for (Cell cell : family) {
        if (spec.minVersions() == 0 && cell.timestamp() < oldest) {
          continue;
        }
        if (cell.type() == CellType.DELETE_FAMILY) {
          familyDelete = Math.max(familyDelete, cell.timestamp());
        } else if (cell.type() == CellType.DELETE_FAMILY_VERSION) {
          familyVersionDeletes.add(cell.timestamp());
        }
      }
      TreeMap<String, List<Cell>> columns = new TreeMap<>();
      for (Cell cell : family) {
        columns.computeIfAbsent(hex(cell.qualifierArray()), k -> new ArrayList<>()).add(cell);
      }
      for (List<Cell> column : columns.values()) {
        List<Cell> kept = column(column, spec, oldest, familyDelete, familyVersionDeletes);
        if (!kept.isEmpty()) {
          rows.computeIfAbsent(hex(column.get(0).rowArray()), k -> new ArrayList<>()).addAll(kept);
        }
      }
    }
    return new ArrayList<>(rows.values());
  }

  private static List<Cell> column(
      List<Cell> cells,
      ScanSpec spec,
      long oldest,
      long familyDelete,
      Set<Long> familyVersionDeletes) {
    List<Cell> kept = new ArrayList<>();
    byte[] qualifier = cells.get(0).qualifierArray();
    if (spec.qualifiers() != null
        && spec.qualifiers().stream().noneMatch(q -> Bytes.compare(q, qualifier) == 0)) {
      return kept;
    }
    long columnDelete = Long.MIN_VALUE;
    Set<Long> versionDeletes = new HashSet<>();
    for (Cell cell : cells) {
      if (spec.minVersions() == 0 && cell.timestamp() < oldest) {
        continue;
      }
      if (cell.type() == CellType.DELETE_COLUMN) {
        columnDelete = Math.max(columnDelete, cell.timestamp());
      } else if (cell.type() == CellType.DELETE) {
        versionDeletes.add(cell.timestamp());
      }
    }
    Set<Long> seen = new HashSet<>();
    int versions = 0;
    for (Cell cell : cells) {
      long ts = cell.timestamp();
      if (cell.type() != CellType.PUT
          || ts >= spec.maxTimestamp()
          || ts < spec.minTimestamp()
          || (spec.minVersions() == 0 && ts < oldest)
          || ts <= familyDelete
          || familyVersionDeletes.contains(ts)
          || ts <= columnDelete
          || versionDeletes.contains(ts)
          || !seen.add(ts)) {
        continue;
      }
      if (ts < oldest && versions >= spec.minVersions()) {
        break;
      }
      if (++versions > spec.maxVersions()) {
        break;
      }
      kept.add(cell);
    }
    return kept;
  }

  public static String describe(Cell cell) {
    return hex(cell.rowArray())
        + "/"
        + hex(cell.familyArray())
        + ":"
        + hex(cell.qualifierArray())
        + "@"
        + cell.timestamp()
        + "="
        + hex(cell.valueArray());
  }

  private static String familyKey(Cell cell) {
    return hex(cell.rowArray()) + "/" + hex(cell.familyArray());
  }

  private static String hex(byte[] bytes) {
    StringBuilder text = new StringBuilder();
    for (byte b : bytes) {
      text.append(String.format("%02x", b));
    }
    return text.toString();
  }
}
