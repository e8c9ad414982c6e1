package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CollectedRow}: cells removed through its list (as whole-row filters remove them) leave
 * the others in order and their flyweights reusable; the pins a filtered row took are given back.
 */
class CollectedRowTest {

  private static KeyValue cell(String qualifier) {
    return KeyValue.create("r".getBytes(StandardCharsets.US_ASCII),
        "f".getBytes(StandardCharsets.US_ASCII), qualifier.getBytes(StandardCharsets.US_ASCII), 1,
        CellType.PUT, qualifier.getBytes(StandardCharsets.US_ASCII));
  }

  private static List<String> qualifiers(CollectedRow row) {
    return row.cells().stream()
        .map(c -> new String(c.qualifierArray(), StandardCharsets.US_ASCII)).toList();
  }

  @Test
  void cellsRemovedThroughTheListLeaveTheOthersInOrder() {
    CollectedRow row = new CollectedRow();
    for (String q : List.of("a", "b", "c", "d", "e", "f")) {
      row.addCopy(cell(q));
    }
    Cell removed = row.cells().remove(1);
    assertEquals("b", new String(removed.qualifierArray(), StandardCharsets.US_ASCII));
    row.cells().subList(2, 4).clear();
    assertEquals(List.of("a", "c", "f"), qualifiers(row));
    row.cells().removeIf(c -> c.qualifierArray()[0] == 'c');
    assertEquals(List.of("a", "f"), qualifiers(row));
    for (String q : List.of("g", "h", "i", "j")) {
      row.addCopy(cell(q));
    }
    assertEquals(List.of("a", "f", "g", "h", "i", "j"), qualifiers(row));
    row.cells().subList(1, 6).clear();
    assertEquals(List.of("a"), qualifiers(row));
    row.clear();
    assertEquals(0, row.size());
  }

  @Test
  void unpinAfterGivesBackOnlyTheLaterPins() {
    KeyValue cell = cell("q");
    Buf first = Buf.wrap(cell.segment());
    Buf second = Buf.wrap(new byte[8]);
    Buf third = Buf.wrap(new byte[8]);
    CollectedRow row = new CollectedRow();
    row.addView(cell, first);
    int kept = row.pinnedBuffers();
    row.addView(cell, second);
    row.addView(cell, third);
    row.addView(cell, first);
    assertEquals(3, row.pinnedBuffers());
    row.cells().subList(1, 4).clear();
    row.unpinAfter(kept);
    assertEquals(1, row.pinnedBuffers());
    assertEquals(2, first.refCnt());
    assertEquals(1, second.refCnt());
    assertEquals(1, third.refCnt());
    row.clear();
    assertEquals(1, first.refCnt());
    first.release();
    second.release();
    third.release();
  }
}
