package dev.cellar.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CollectedRow}: cells removed through its list (as whole-row filters remove them) leave the
 * others in order and their flyweights reusable; the pins a filtered row took are given back; a
 * cell held by its key copy reads its value where it lies and pins that memory.
 */
class CollectedRowTest {

  private static KeyValue cell(String qualifier) {
    return KeyValue.create(
        "r".getBytes(StandardCharsets.US_ASCII),
        "f".getBytes(StandardCharsets.US_ASCII),
        qualifier.getBytes(StandardCharsets.US_ASCII),
        1,
        CellType.PUT,
        qualifier.getBytes(StandardCharsets.US_ASCII));
  }

  private static List<String> qualifiers(CollectedRow row) {
    return row.cells().stream()
        .map(c -> new String(c.qualifierArray(), StandardCharsets.US_ASCII))
        .toList();
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

  /** A cell whose key is in one array and whose value is in another, as a decoder leaves it. */
  private static Cell splitCell(KeyValue whole, byte[] valueHolder, int valueAt) {
    MemorySegment values = MemorySegment.ofArray(valueHolder);
    MemorySegment.copy(
        whole.valueSegment(), whole.valueOffset(), values, valueAt, whole.valueLength());
    return new Cell() {
      public MemorySegment segment() {
        return whole.segment();
      }

      public long offset() {
        return whole.offset();
      }

      public int length() {
        return whole.length();
      }

      public int keyLength() {
        return whole.keyLength();
      }

      public int valueLength() {
        return whole.valueLength();
      }

      public int rowLength() {
        return whole.rowLength();
      }

      public int familyLength() {
        return whole.familyLength();
      }

      public int tagsLength() {
        return 0;
      }

      public long sequenceId() {
        return 7;
      }

      public MemorySegment valueSegment() {
        return values;
      }

      public long valueOffset() {
        return valueAt;
      }

      public MemorySegment tagsSegment() {
        return values;
      }

      public long tagsOffset() {
        return valueAt + whole.valueLength();
      }
    };
  }

  @Test
  void aKeyCopyReadsItsValueInPlaceAndPinsItsMemory() {
    byte[] blockBytes = new byte[512];
    Buf block = Buf.wrap(blockBytes);
    CollectedRow row = new CollectedRow();
    List<String> expected = new ArrayList<>();
    List<Buf> others = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      String q = "q" + i;
      expected.add(q);
      KeyValue whole = cell(q);
      switch (i % 3) {
        case 0 -> row.addKeyCopy(splitCell(whole, blockBytes, 16 * i), block);
        case 1 -> row.addCopy(whole);
        default -> {
          Buf other = Buf.wrap(whole.segment());
          others.add(other);
          row.addView(whole, other);
        }
      }
    }
    assertEquals(expected, qualifiers(row));
    assertEquals(4, row.pinnedBuffers());
    assertEquals(2, block.refCnt());
    assertTrue(row.holdsViews());
    Cell keyCopy = row.get(3);
    assertFalse(row.isView(3));
    assertSame(blockBytes, keyCopy.valueSegment().heapBase().orElseThrow());
    assertEquals(16 * 3, keyCopy.valueOffset());
    assertArrayEquals("q3".getBytes(StandardCharsets.US_ASCII), keyCopy.valueArray());
    assertEquals(7, keyCopy.sequenceId());
    assertEquals(0, CellComparator.compareKeyIgnoringSequenceId(cell("q3"), keyCopy));
    assertEquals(cell("q3").withSequenceId(7).toString(), keyCopy.toString());

    List<Cell> detached = row.detachCells();
    KeyValue copied = (KeyValue) detached.get(0);
    assertArrayEquals("q0".getBytes(StandardCharsets.US_ASCII), copied.valueArray());
    assertNotSame(blockBytes, copied.valueSegment().heapBase().orElseThrow());

    row.cells().removeIf(c -> c.qualifierArray()[1] % 3 != 0);
    assertEquals(List.of("q0", "q3", "q6"), qualifiers(row));
    assertFalse(row.holdsViews());
    for (int i = 9; i < 20; i++) {
      row.addKeyCopy(splitCell(cell("q" + (char) ('a' + i)), blockBytes, 16 * i), block);
    }
    assertEquals(14, row.size());
    assertArrayEquals("qt".getBytes(StandardCharsets.US_ASCII), row.get(13).valueArray());
    assertArrayEquals("q6".getBytes(StandardCharsets.US_ASCII), row.get(2).valueArray());
    row.clear();
    assertEquals(1, block.refCnt());
    block.release();
    others.forEach(Buf::release);
  }
}
