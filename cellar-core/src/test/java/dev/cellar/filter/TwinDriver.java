package dev.cellar.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Drives a Cellar filter and its HBase twin through the same sorted cells the way a store scanner
 * does, and asserts that they agree at every step: the end of the scan, each row key decision, each
 * cell's return code, every seek hint, the row cells kept and the row decision. The cells shown
 * next depend on the answer (a column skip, a family's row end, a seek to the hint), exactly as
 * each family's scanner would move; a hint past the row ends that family's part of the row, and the
 * next row starts at the nearest place any family moved to.
 */
final class TwinDriver {

  private TwinDriver() {}

  /** Random rows of cells with few distinct rows, families, qualifiers and timestamps. */
  static List<KeyValue> randomCells(SplittableRandom random, int count, byte[] valueAlphabet) {
    return randomCells(random, count, valueAlphabet, 1, 3);
  }

  /** As above, with rows of {@code minRow} to {@code maxRow} bytes. */
  static List<KeyValue> randomCells(
      SplittableRandom random, int count, byte[] valueAlphabet, int minRow, int maxRow) {
    TreeSet<KeyValue> cells = new TreeSet<>(CellComparator::compareKeyIgnoringSequenceId);
    String[] families = {"f", "g"};
    for (int i = 0; i < count; i++) {
      byte[] row = randomBytes(random, new byte[] {'a', 'b', 'c', 0, (byte) 0xFF}, minRow, maxRow);
      byte[] qualifier = randomBytes(random, new byte[] {'a', 'b', 'c', 0}, 0, 2);
      byte[] value = randomBytes(random, valueAlphabet, 0, 3);
      cells.add(
          KeyValue.create(
              row,
              Bytes.toBytes(families[random.nextInt(2)]),
              qualifier,
              1 + random.nextInt(6),
              CellType.PUT,
              value));
    }
    return new ArrayList<>(cells);
  }

  static byte[] randomBytes(SplittableRandom random, byte[] alphabet, int min, int max) {
    byte[] bytes = new byte[min + random.nextInt(max - min + 1)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = alphabet[random.nextInt(alphabet.length)];
    }
    return bytes;
  }

  /** Drives both filters over {@code cells} (sorted); returns the rows kept, as text. */
  static List<String> drive(
      Filter filter, org.apache.hadoop.hbase.filter.Filter twin, List<KeyValue> cells, String what)
      throws IOException {
    List<String> kept = new ArrayList<>();
    int start = 0;
    while (start < cells.size()) {
      KeyValue first = cells.get(start);
      String at = what + " at " + first;
      assertEquals(twin.filterAllRemaining(), filter.filterAllRemaining(), at + " (all remaining)");
      if (filter.filterAllRemaining()) {
        break;
      }
      int rowEnd = rowEnd(cells, start);
      filter.reset();
      twin.reset();
      boolean dropRow = filter.filterRowKey(first);
      assertEquals(twin.filterRowKey(HBaseTwins.cell(first)), dropRow, at + " (row key)");
      if (dropRow) {
        start = rowEnd;
        continue;
      }
      List<Cell> rowCells = new ArrayList<>();
      List<org.apache.hadoop.hbase.Cell> twinCells = new ArrayList<>();
      int next = rowEnd;
      boolean normalEnd = false;
      int i = start;
      while (i < rowEnd) {
        KeyValue cell = cells.get(i);
        org.apache.hadoop.hbase.KeyValue twinCell = HBaseTwins.cell(cell);
        Filter.ReturnCode code = filter.filterCell(cell);
        assertEquals(HBaseTwins.code(twin.filterCell(twinCell)), code, what + " on " + cell);
        if (ReturnCodes.includes(code)) {
          rowCells.add(cell);
          twinCells.add(twinCell);
        }
        int familyEnd = familyEnd(cells, i, rowEnd);
        switch (code) {
          case INCLUDE, SKIP -> i++;
          case INCLUDE_AND_NEXT_COL, NEXT_COL -> i = columnEnd(cells, i, rowEnd);
          case INCLUDE_AND_SEEK_NEXT_ROW, NEXT_ROW -> i = familyEnd;
          case SEEK_NEXT_USING_HINT -> {
            Cell hint = filter.nextCellHint(cell);
            org.apache.hadoop.hbase.Cell twinHint = twin.getNextCellHint(twinCell);
            assertTrue(
                HBaseTwins.sameKey(hint, twinHint),
                what + " hint on " + cell + ": " + hint + " vs " + twinHint);
            if (hint == null || CellComparator.INSTANCE.compare(hint, cell) <= 0) {
              i++;
            } else {
              int target = firstAtOrAfter(cells, hint, i + 1);
              if (target >= rowEnd) {
                next = Math.min(next, target);
                i = familyEnd;
                continue;
              }
              i = Math.min(target, familyEnd);
            }
          }
        }
        if (i == familyEnd || i >= rowEnd) {
          normalEnd = true;
        }
      }
      if (normalEnd) {
        next = rowEnd;
      }
      if (!rowCells.isEmpty()) {
        if (filter.hasFilterRow()) {
          assertEquals(twin.hasFilterRow(), true, at);
          filter.filterRowCells(rowCells);
          twin.filterRowCells(twinCells);
          assertEquals(text(twinCells), textOf(rowCells), at + " (row cells)");
        }
        if (!rowCells.isEmpty()) {
          boolean drop = filter.filterRow();
          assertEquals(twin.filterRow(), drop, at + " (row)");
          if (!drop) {
            kept.addAll(textOf(rowCells));
          }
        }
      }
      start = next;
    }
    return kept;
  }

  private static int rowEnd(List<KeyValue> cells, int from) {
    int i = from + 1;
    while (i < cells.size() && CellComparator.compareRows(cells.get(i), cells.get(from)) == 0) {
      i++;
    }
    return i;
  }

  private static int familyEnd(List<KeyValue> cells, int from, int rowEnd) {
    int i = from + 1;
    while (i < rowEnd
        && java.util.Arrays.equals(cells.get(i).familyArray(), cells.get(from).familyArray())) {
      i++;
    }
    return i;
  }

  private static int columnEnd(List<KeyValue> cells, int from, int rowEnd) {
    int i = from + 1;
    while (i < rowEnd
        && java.util.Arrays.equals(cells.get(i).familyArray(), cells.get(from).familyArray())
        && java.util.Arrays.equals(
            cells.get(i).qualifierArray(), cells.get(from).qualifierArray())) {
      i++;
    }
    return i;
  }

  private static int firstAtOrAfter(List<KeyValue> cells, Cell key, int from) {
    int i = from;
    while (i < cells.size() && CellComparator.INSTANCE.compare(cells.get(i), key) < 0) {
      i++;
    }
    return i;
  }

  private static List<String> textOf(List<Cell> cells) {
    List<String> text = new ArrayList<>();
    for (Cell cell : cells) {
      text.add(KeyValue.copyOf(cell).toString());
    }
    return text;
  }

  private static List<String> text(List<org.apache.hadoop.hbase.Cell> cells) {
    List<String> text = new ArrayList<>();
    for (org.apache.hadoop.hbase.Cell cell : cells) {
      text.add(HBaseTwins.fromHBase(cell).toString());
    }
    return text;
  }
}
