package dev.cellar.cell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class KeyValueCellTest {

  private static final byte[] ROW = Bytes.toBytes("row");
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("qual");
  private static final byte[] VALUE = Bytes.toBytes("the value");

  /** Writes a cell at {@code offset} of {@code segment}; returns its serialized length. */
  private static int write(MemorySegment segment, long offset, Cell cell) {
    MemorySegment.copy(cell.segment(), cell.offset(), segment, offset, cell.length());
    return cell.length();
  }

  @Test
  void viewOfAnOffHeapCellReadsEveryPartInPlace() {
    KeyValue source =
        KeyValue.create(
            ROW,
            FAMILY,
            QUALIFIER,
            123L,
            CellType.DELETE_FAMILY,
            VALUE,
            List.of(new Tag((byte) 2, Bytes.toBytes("vis"))));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment block = arena.allocate(source.length() + 100);
      long at = 37;
      write(block, at, source);
      KeyValueCell view = new KeyValueCell(block, at, source.length(), true, 5);
      assertSame(block, view.segment());
      assertEquals(at, view.offset());
      assertEquals(at + 8, view.keyOffset());
      assertEquals(at + 8 + 2, view.rowOffset());
      assertEquals(source.rowOffset() + at, view.rowOffset());
      assertEquals(source.familyOffset() + at, view.familyOffset());
      assertEquals(source.qualifierOffset() + at, view.qualifierOffset());
      assertEquals(source.valueOffset() + at, view.valueOffset());
      assertEquals(source.tagsOffset() + at, view.tagsOffset());
      assertEquals(QUALIFIER.length, view.qualifierLength());
      assertEquals(123L, view.timestamp());
      assertEquals(CellType.DELETE_FAMILY, view.type());
      assertArrayEquals(ROW, view.rowArray());
      assertArrayEquals(FAMILY, view.familyArray());
      assertArrayEquals(QUALIFIER, view.qualifierArray());
      assertArrayEquals(VALUE, view.valueArray());
      assertArrayEquals(source.tagsArray(), view.tagsArray());
      assertEquals(source.tags(), view.tags());
      assertEquals(5, view.sequenceId());
      assertEquals(source.withSequenceId(5).toString(), view.toString());
      assertEquals(0, CellComparator.compareKeyIgnoringSequenceId(source, view));
    }
  }

  @Test
  void viewSeesTheMemoryItPointsAt() {
    KeyValue source = KeyValue.create(ROW, FAMILY, QUALIFIER, 1L, CellType.PUT, VALUE);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment block = arena.allocate(source.length());
      write(block, 0, source);
      KeyValueCell view = new KeyValueCell(block, 0, source.length(), false, 0);
      block.set(ValueLayout.JAVA_BYTE, view.valueOffset(), (byte) 'T');
      assertEquals('T', view.valueArray()[0]);
    }
  }

  @Test
  void viewFailsOnceItsArenaIsClosed() {
    KeyValue source = KeyValue.create(ROW, FAMILY, QUALIFIER, 1L, CellType.PUT, VALUE);
    Arena arena = Arena.ofConfined();
    MemorySegment block = arena.allocate(source.length());
    write(block, 0, source);
    KeyValueCell view = new KeyValueCell(block, 0, source.length(), false, 0);
    arena.close();
    assertThrows(IllegalStateException.class, view::timestamp);
  }

  @Test
  void flyweightWalksABlockOfCellsWithAndWithoutTagsSections(TestSeed seed) {
    Random random = new Random(seed.value());
    List<KeyValue> cells = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      cells.add(
          KeyValue.create(
              RandomCells.bytes(random, 1 + random.nextInt(10)),
              RandomCells.bytes(random, random.nextInt(4)),
              RandomCells.bytes(random, random.nextInt(6)),
              random.nextLong(),
              CellType.PUT,
              RandomCells.bytes(random, random.nextInt(20))));
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment block = arena.allocate(64 * 1024);
      long position = 0;
      for (KeyValue cell : cells) {
        position += write(block, position, cell);
        block.set(KeyValueLayout.SHORT, position, (short) 0);
        position += KeyValueLayout.TAGS_LENGTH_SIZE;
      }
      KeyValueCell cursor = new KeyValueCell();
      position = 0;
      for (int i = 0; i < cells.size(); i++) {
        KeyValue expected = cells.get(i);
        int length = expected.length() + KeyValueLayout.TAGS_LENGTH_SIZE;
        assertSame(cursor, cursor.reset(block, position, length, true, i));
        String message = "cell " + i;
        assertEquals(0, CellComparator.compareKeyIgnoringSequenceId(expected, cursor), message);
        assertArrayEquals(expected.valueArray(), cursor.valueArray(), message);
        assertEquals(0, cursor.tagsLength(), message);
        assertEquals(i, cursor.sequenceId(), message);
        position += length;
      }
    }
  }

  @Test
  void unsetFlyweightSaysSo() {
    KeyValueCell cell = new KeyValueCell();
    IllegalStateException e = assertThrows(IllegalStateException.class, cell::segment);
    assertTrue(e.getMessage().contains("before reset"), e.getMessage());
    assertEquals("KeyValueCell[unset]", cell.toString());
  }

  // ---------------------------------------------------------------- malformed input

  /** A valid 27-byte cell: row "r", family "f", qualifier "q", value "vv", tags section of 0. */
  private static MemorySegment validCell(Arena arena) {
    KeyValue kv =
        KeyValue.create(
            new byte[] {'r'},
            new byte[] {'f'},
            new byte[] {'q'},
            7L,
            CellType.PUT,
            new byte[] {'v', 'v'});
    MemorySegment segment = arena.allocate(kv.length() + KeyValueLayout.TAGS_LENGTH_SIZE);
    write(segment, 0, kv);
    return segment;
  }

  private static String failure(MemorySegment segment, long offset, int length, boolean hasTags) {
    return assertThrows(
            IllegalArgumentException.class,
            () -> new KeyValueCell(segment, offset, length, hasTags, 0))
        .getMessage();
  }

  @Test
  void rangeOutsideTheSegmentIsRejected() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = validCell(arena);
      assertEquals(
          "malformed KeyValue at offset 4: expected a range within the segment of 27 bytes,"
              + " found length 27",
          failure(cell, 4, 27, true));
      assertEquals(
          "malformed KeyValue at offset 0: expected at least 8 bytes of lengths, found length 5",
          failure(cell, 0, 5, false));
    }
  }

  @Test
  void keyLengthBeyondTheCellIsRejected() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = validCell(arena);
      cell.set(KeyValueLayout.INT, KeyValueLayout.KEY_LENGTH_OFFSET, 1000);
      assertEquals(
          "malformed KeyValue at offset 0: expected a key length between 12 and 19,"
              + " found key length 1000",
          failure(cell, 0, 27, true));
      cell.set(KeyValueLayout.INT, KeyValueLayout.KEY_LENGTH_OFFSET, 11);
      assertEquals(
          "malformed KeyValue at offset 0: expected a key length between 12 and 19,"
              + " found key length 11",
          failure(cell, 0, 27, true));
    }
  }

  @Test
  void valueLengthBeyondTheCellIsRejected() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = validCell(arena);
      cell.set(KeyValueLayout.INT, KeyValueLayout.VALUE_LENGTH_OFFSET, -1);
      assertEquals(
          "malformed KeyValue at offset 0: expected a value length between 0 and 4,"
              + " found value length -1",
          failure(cell, 0, 27, true));
      cell.set(KeyValueLayout.INT, KeyValueLayout.VALUE_LENGTH_OFFSET, 5);
      assertEquals(
          "malformed KeyValue at offset 0: expected a value length between 0 and 4,"
              + " found value length 5",
          failure(cell, 0, 27, true));
    }
  }

  @Test
  void lengthsACursorReadAlreadyAreValidatedAsReadOnes() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = validCell(arena);
      int keyLength = cell.get(KeyValueLayout.INT, KeyValueLayout.KEY_LENGTH_OFFSET);
      int valueLength = cell.get(KeyValueLayout.INT, KeyValueLayout.VALUE_LENGTH_OFFSET);
      KeyValueCell view = new KeyValueCell().reset(cell, 0, 27, keyLength, valueLength, true, 5);
      assertEquals(new KeyValueCell(cell, 0, 27, true, 5).toString(), view.toString());
      assertEquals(valueLength, view.valueLength());
      assertEquals(5, view.sequenceId());
      assertEquals(
          "malformed KeyValue at offset 0: expected a key length between 12 and 19,"
              + " found key length 1000",
          assertThrows(
                  IllegalArgumentException.class,
                  () -> view.reset(cell, 0, 27, 1000, valueLength, true, 0))
              .getMessage());
      assertEquals(
          "malformed KeyValue at offset 0: expected a value length between 0 and 4,"
              + " found value length 5",
          assertThrows(
                  IllegalArgumentException.class,
                  () -> view.reset(cell, 0, 27, keyLength, 5, true, 0))
              .getMessage());
      assertEquals(5, view.sequenceId(), "a rejected reset leaves the view as it was");
    }
  }

  @Test
  void rowAndFamilyLengthsBeyondTheKeyAreRejected() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = validCell(arena);
      long keyOffset = KeyValueLayout.keyOffset(0);
      cell.set(KeyValueLayout.SHORT, keyOffset, (short) 4);
      assertEquals(
          "malformed KeyValue at offset 0: expected a row length between 0 and 3,"
              + " found row length 4",
          failure(cell, 0, 27, true));
      cell.set(KeyValueLayout.SHORT, keyOffset, (short) -1);
      assertEquals(
          "malformed KeyValue at offset 0: expected a row length between 0 and 3,"
              + " found row length -1",
          failure(cell, 0, 27, true));
      cell.set(KeyValueLayout.SHORT, keyOffset, (short) 1);
      cell.set(KeyValueLayout.BYTE, KeyValueLayout.familyLengthOffset(keyOffset, 1), (byte) 3);
      assertEquals(
          "malformed KeyValue at offset 0: expected a family length between 0 and 2,"
              + " found family length 3",
          failure(cell, 0, 27, true));
    }
  }

  @Test
  void tagsSectionMustMatchTheLength() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = validCell(arena);
      assertEquals(
          "malformed KeyValue at offset 0: expected length 25 (key 15, value 2, no tags),"
              + " found length 27",
          failure(cell, 0, 27, false));
      assertEquals(
          "malformed KeyValue at offset 0: expected a tags length field after the value,"
              + " cell length at least 27, found length 25",
          failure(cell, 0, 25, true));
      cell.set(KeyValueLayout.SHORT, 25, (short) 5);
      assertEquals(
          "malformed KeyValue at offset 0: expected length 32 (key 15, value 2, tags 5),"
              + " found length 27",
          failure(cell, 0, 27, true));
      assertEquals(25, new KeyValueCell(cell, 0, 25, false, 0).length());
    }
  }

  @Test
  void failedResetLeavesTheFlyweightOnItsCell() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = validCell(arena);
      KeyValueCell view = new KeyValueCell(cell, 0, 27, true, 3);
      assertThrows(IllegalArgumentException.class, () -> view.reset(cell, 0, 26, true, 4));
      assertEquals(27, view.length());
      assertEquals(3, view.sequenceId());
      assertArrayEquals(new byte[] {'v', 'v'}, view.valueArray());
    }
  }

  @Test
  void unknownTypeIsReportedOnlyWhenAskedFor() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cell = validCell(arena);
      KeyValueCell view = new KeyValueCell(cell, 0, 27, true, 0);
      cell.set(
          KeyValueLayout.BYTE,
          KeyValueLayout.typeOffset(view.keyOffset(), view.keyLength()),
          (byte) 3);
      assertEquals(3, view.typeByte());
      assertThrows(IllegalArgumentException.class, view::type);
      assertEquals("r/f:q/7/UnknownType(3)/vlen=2/seqid=0", view.toString());
    }
  }
}
