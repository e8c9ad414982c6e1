package dev.cellar.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class CellComparatorTest {

  private static final byte[] ROW = Bytes.toBytes("row");
  private static final byte[] NEXT_ROW = {'r', 'o', 'w', 0};
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final byte[] VALUE = Bytes.toBytes("v");

  private static KeyValue put(byte[] row, byte[] family, byte[] qualifier, long timestamp) {
    return KeyValue.create(row, family, qualifier, timestamp, CellType.PUT, VALUE);
  }

  private static KeyValue cell(long timestamp, CellType type) {
    return KeyValue.create(ROW, FAMILY, QUALIFIER, timestamp, type, VALUE);
  }

  /** Asserts that sorting a shuffled copy of {@code expected} restores it. */
  private static void assertSortsAs(List<? extends Cell> expected) {
    List<Cell> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new Random(expected.size()));
    shuffled.sort(CellComparator.INSTANCE);
    assertEquals(
        expected.stream().map(Object::toString).toList(),
        shuffled.stream().map(Object::toString).toList());
    for (int i = 1; i < expected.size(); i++) {
      assertTrue(
          CellComparator.INSTANCE.compare(expected.get(i - 1), expected.get(i)) < 0,
          expected.get(i - 1) + " < " + expected.get(i));
      assertTrue(
          CellComparator.INSTANCE.compare(expected.get(i), expected.get(i - 1)) > 0,
          expected.get(i) + " > " + expected.get(i - 1));
    }
  }

  @Test
  void typesOfOneCoordinateSortByCodeDescending() {
    assertSortsAs(
        List.of(
            cell(5, CellType.MAXIMUM),
            cell(5, CellType.DELETE_FAMILY),
            cell(5, CellType.DELETE_COLUMN),
            cell(5, CellType.DELETE_FAMILY_VERSION),
            cell(5, CellType.DELETE),
            cell(5, CellType.PUT),
            cell(5, CellType.MINIMUM)));
  }

  @Test
  void timestampsSortNewestFirstBeforeTypes() {
    assertSortsAs(
        List.of(
            cell(KeyValue.LATEST_TIMESTAMP, CellType.PUT),
            cell(9, CellType.PUT),
            cell(9, CellType.MINIMUM),
            cell(8, CellType.MAXIMUM),
            cell(0, CellType.PUT),
            cell(-1, CellType.PUT),
            cell(KeyValue.OLDEST_TIMESTAMP, CellType.PUT)));
  }

  @Test
  void rowsFamiliesAndQualifiersSortUnsignedWithEmptyFirst() {
    byte[] high = {(byte) 0x80};
    assertSortsAs(
        List.of(
            put(ROW, Bytes.EMPTY, Bytes.EMPTY, 1),
            put(ROW, Bytes.EMPTY, QUALIFIER, 1),
            put(ROW, FAMILY, Bytes.EMPTY, 1),
            put(ROW, FAMILY, QUALIFIER, 1),
            put(ROW, FAMILY, high, 1),
            put(ROW, high, Bytes.EMPTY, 1),
            put(NEXT_ROW, Bytes.EMPTY, Bytes.EMPTY, 1),
            put(high, FAMILY, QUALIFIER, 1)));
  }

  @Test
  void familyAndQualifierCompareSeparately() {
    KeyValue familyA = put(ROW, Bytes.toBytes("a"), Bytes.toBytes("b"), 1);
    KeyValue familyAb = put(ROW, Bytes.toBytes("ab"), Bytes.EMPTY, 1);
    assertSortsAs(List.of(familyA, familyAb));
    assertTrue(CellComparator.compareFamilies(familyA, familyAb) < 0);
    assertTrue(CellComparator.compareQualifiers(familyA, familyAb) > 0);
  }

  @Test
  void firstAndLastOnRowBracketTheRow() {
    assertSortsAs(
        List.of(
            KeyValue.lastOnRow(Bytes.toBytes("ro")),
            KeyValue.firstOnRow(ROW),
            put(ROW, Bytes.EMPTY, Bytes.EMPTY, KeyValue.LATEST_TIMESTAMP),
            KeyValue.firstOnColumn(ROW, FAMILY, QUALIFIER),
            cell(KeyValue.LATEST_TIMESTAMP, CellType.PUT),
            cell(3, CellType.DELETE),
            cell(KeyValue.OLDEST_TIMESTAMP, CellType.PUT),
            KeyValue.lastOnColumn(ROW, FAMILY, QUALIFIER),
            put(ROW, FAMILY, Bytes.toBytes("r"), KeyValue.OLDEST_TIMESTAMP),
            KeyValue.create(ROW, Bytes.EMPTY, Bytes.EMPTY, 1, CellType.MINIMUM, Bytes.EMPTY),
            KeyValue.firstOnRow(NEXT_ROW)));
  }

  @Test
  void lastOnRowRuleFavoursTheLeftCellAsHBaseDoes() {
    KeyValue a = KeyValue.lastOnRow(ROW);
    KeyValue b = KeyValue.create(ROW, Bytes.EMPTY, Bytes.EMPTY, 1, CellType.MINIMUM, Bytes.EMPTY);
    org.apache.hadoop.hbase.KeyValue hbaseA =
        org.apache.hadoop.hbase.KeyValueUtil.createLastOnRow(ROW);
    org.apache.hadoop.hbase.KeyValue hbaseB =
        new org.apache.hadoop.hbase.KeyValue(
            ROW, Bytes.EMPTY, Bytes.EMPTY, 1, org.apache.hadoop.hbase.KeyValue.Type.Minimum);
    org.apache.hadoop.hbase.CellComparatorImpl hbase =
        org.apache.hadoop.hbase.CellComparatorImpl.COMPARATOR;
    assertEquals(1, hbase.compare(hbaseA, hbaseB));
    assertEquals(1, hbase.compare(hbaseB, hbaseA));
    assertEquals(1, hbase.compare(hbaseA, hbaseA));
    assertEquals(1, CellComparator.INSTANCE.compare(a, b));
    assertEquals(1, CellComparator.INSTANCE.compare(b, a));
    assertEquals(1, CellComparator.INSTANCE.compare(a, a));
  }

  @Test
  void laterSequenceIdSortsFirstUnlessIgnored() {
    KeyValue older = cell(5, CellType.PUT).withSequenceId(3);
    KeyValue newer = cell(5, CellType.PUT).withSequenceId(9);
    assertSortsAs(List.of(newer, older));
    assertEquals(0, CellComparator.IGNORING_SEQUENCE_ID.compare(newer, older));
    assertEquals(0, CellComparator.compareKeyIgnoringSequenceId(newer, older));
    assertTrue(CellComparator.compare(newer, older, false) < 0);
    assertEquals(0, CellComparator.compare(newer, older, true));
    assertTrue(CellComparator.INSTANCE.compare(cell(6, CellType.PUT), newer) < 0);
  }

  @Test
  void rowHelpers() {
    KeyValue a = put(ROW, FAMILY, QUALIFIER, 1);
    KeyValue b = put(NEXT_ROW, Bytes.EMPTY, QUALIFIER, 1);
    assertTrue(CellComparator.compareRows(a, b) < 0);
    assertEquals(0, CellComparator.compareRows(a, KeyValue.lastOnRow(ROW)));
    assertEquals(0, CellComparator.compareRow(a, MemorySegment.ofArray(ROW), 0, ROW.length));
    assertTrue(CellComparator.compareRow(b, MemorySegment.ofArray(ROW), 0, ROW.length) > 0);
    assertTrue(CellComparator.compareFamilies(a, b) > 0);
    assertEquals(0, CellComparator.compareQualifiers(a, b));
  }

  @Test
  void rawKeysCompareLikeTheirCellsOnAndOffHeap(TestSeed seed) {
    Random random = new Random(seed.value());
    List<KeyValue> cells =
        RandomCells.generate(random, 300).stream().map(RandomCells.Spec::toKeyValue).toList();
    try (Arena arena = Arena.ofConfined()) {
      List<MemorySegment> keys = new ArrayList<>();
      for (KeyValue cell : cells) {
        MemorySegment key = arena.allocate(cell.keyLength() + 5);
        MemorySegment.copy(cell.segment(), cell.keyOffset(), key, 5, cell.keyLength());
        keys.add(key);
      }
      for (int i = 0; i < cells.size(); i++) {
        for (int j = 0; j < cells.size(); j++) {
          KeyValue left = cells.get(i);
          KeyValue right = cells.get(j);
          int expected = Integer.signum(CellComparator.compareKeyIgnoringSequenceId(left, right));
          Supplier<String> message = () -> left + " vs " + right;
          assertEquals(
              expected,
              Integer.signum(CellComparator.compareKey(left, keys.get(j), 5, right.keyLength())),
              message);
          assertEquals(
              expected,
              Integer.signum(
                  CellComparator.compareKeys(
                      keys.get(i), 5, left.keyLength(), keys.get(j), 5, right.keyLength())),
              message);
        }
      }
    }
  }

  @Test
  void malformedRawKeysAreRejected() {
    KeyValue cell = put(ROW, FAMILY, QUALIFIER, 1);
    MemorySegment key = MemorySegment.ofArray(new byte[cell.keyLength()]);
    MemorySegment.copy(cell.segment(), cell.keyOffset(), key, 0, cell.keyLength());
    IllegalArgumentException tooShort =
        assertThrows(
            IllegalArgumentException.class, () -> CellComparator.compareKey(cell, key, 0, 11));
    assertEquals(
        "malformed key at offset 0: expected a key length of at least 12, found key length 11",
        tooShort.getMessage());
    key.set(KeyValueLayout.SHORT, 0, (short) 9);
    IllegalArgumentException row =
        assertThrows(
            IllegalArgumentException.class,
            () -> CellComparator.compareKey(cell, key, 0, cell.keyLength()));
    assertEquals(
        "malformed key at offset 0: expected a row length between 0 and 5, found row length 9",
        row.getMessage());
    key.set(KeyValueLayout.SHORT, 0, (short) ROW.length);
    key.set(KeyValueLayout.BYTE, KeyValueLayout.familyLengthOffset(0, ROW.length), (byte) 3);
    IllegalArgumentException family =
        assertThrows(
            IllegalArgumentException.class,
            () -> CellComparator.compareKeys(key, 0, cell.keyLength(), key, 0, cell.keyLength()));
    assertEquals(
        "malformed key at offset 0: expected a family length between 0 and 2,"
            + " found family length 3",
        family.getMessage());
  }
}
