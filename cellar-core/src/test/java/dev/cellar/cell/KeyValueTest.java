package dev.cellar.cell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class KeyValueTest {

  private static final byte[] ROW = Bytes.toBytes("row-1");
  private static final byte[] FAMILY = Bytes.toBytes("cf");
  private static final byte[] QUALIFIER = {'q', (byte) 0x80, 0};
  private static final byte[] VALUE = Bytes.toBytes("value");

  static byte[] serialized(Cell cell) {
    return cell.segment().asSlice(cell.offset(), cell.length()).toArray(ValueLayout.JAVA_BYTE);
  }

  @Test
  void bytesEqualHBaseKeyValueWithoutTags() {
    KeyValue ours = KeyValue.create(ROW, FAMILY, QUALIFIER, 1234L, CellType.PUT, VALUE);
    org.apache.hadoop.hbase.KeyValue hbase =
        new org.apache.hadoop.hbase.KeyValue(
            ROW, FAMILY, QUALIFIER, 1234L, org.apache.hadoop.hbase.KeyValue.Type.Put, VALUE);
    assertArrayEquals(hbase.getBuffer(), serialized(ours));
    assertEquals(hbase.getLength(), ours.length());
    assertEquals(0, ours.tagsLength());
    assertEquals(ours.offset() + ours.length(), ours.tagsOffset());
  }

  @Test
  void bytesEqualHBaseKeyValueWithTags() {
    List<Tag> tags =
        List.of(new Tag((byte) 1, Bytes.toBytes("acl")), new Tag((byte) 8, new byte[0]));
    KeyValue ours =
        KeyValue.create(ROW, FAMILY, QUALIFIER, 99L, CellType.DELETE_COLUMN, VALUE, tags);
    List<org.apache.hadoop.hbase.Tag> hbaseTags = new ArrayList<>();
    for (Tag tag : tags) {
      hbaseTags.add(new ArrayBackedTag(tag.type(), tag.value()));
    }
    org.apache.hadoop.hbase.KeyValue hbase =
        new org.apache.hadoop.hbase.KeyValue(
            ROW,
            FAMILY,
            QUALIFIER,
            99L,
            org.apache.hadoop.hbase.KeyValue.Type.DeleteColumn,
            VALUE,
            hbaseTags);
    assertArrayEquals(hbase.getBuffer(), serialized(ours));
    assertEquals(hbase.getTagsLength(), ours.tagsLength());
    assertEquals(hbase.getTagsOffset(), ours.tagsOffset());
    assertEquals(tags, ours.tags());
  }

  @Test
  void randomCellsSerializeAndParseLikeHBase(TestSeed seed) {
    Random random = new Random(seed.value());
    for (int i = 0; i < 500; i++) {
      byte[] row = RandomCells.bytes(random, random.nextInt(20));
      byte[] family = RandomCells.bytes(random, random.nextInt(10));
      byte[] qualifier = RandomCells.bytes(random, random.nextInt(10));
      byte[] value = RandomCells.bytes(random, random.nextInt(30));
      long timestamp = random.nextLong();
      CellType type = CellType.values()[random.nextInt(CellType.values().length)];
      List<Tag> tags = new ArrayList<>();
      List<org.apache.hadoop.hbase.Tag> hbaseTags = new ArrayList<>();
      for (int t = random.nextInt(3); t > 0; t--) {
        byte tagType = (byte) random.nextInt();
        byte[] tagValue = RandomCells.bytes(random, random.nextInt(5));
        tags.add(new Tag(tagType, tagValue));
        hbaseTags.add(new ArrayBackedTag(tagType, tagValue));
      }
      KeyValue ours = KeyValue.create(row, family, qualifier, timestamp, type, value, tags);
      org.apache.hadoop.hbase.KeyValue hbase =
          new org.apache.hadoop.hbase.KeyValue(
              row,
              family,
              qualifier,
              timestamp,
              org.apache.hadoop.hbase.KeyValue.Type.codeToType(type.code()),
              value,
              hbaseTags);
      assertArrayEquals(hbase.getBuffer(), serialized(ours));
      assertEquals(hbase.getKeyLength(), ours.keyLength());
      assertEquals(hbase.getRowOffset(), ours.rowOffset());
      assertEquals(hbase.getFamilyOffset(), ours.familyOffset());
      assertEquals(hbase.getQualifierOffset(), ours.qualifierOffset());
      assertEquals(hbase.getQualifierLength(), ours.qualifierLength());
      assertEquals(hbase.getValueOffset(), ours.valueOffset());
      assertEquals(hbase.getTimestamp(), ours.timestamp());
      assertEquals(hbase.getTypeByte(), ours.typeByte());
      assertEquals(type, ours.type());
      assertArrayEquals(row, ours.rowArray());
      assertArrayEquals(family, ours.familyArray());
      assertArrayEquals(qualifier, ours.qualifierArray());
      assertArrayEquals(value, ours.valueArray());
      assertEquals(tags, ours.tags());
      assertEquals(hbase.toString(), ours.toString());
    }
  }

  @Test
  void keyOnlyCellsEqualHBaseKeyValueUtil() {
    assertArrayEquals(
        KeyValueUtil.createFirstOnRow(ROW).getBuffer(), serialized(KeyValue.firstOnRow(ROW)));
    assertArrayEquals(
        KeyValueUtil.createLastOnRow(ROW).getBuffer(), serialized(KeyValue.lastOnRow(ROW)));
    assertArrayEquals(
        KeyValueUtil.createFirstOnRow(ROW, FAMILY, QUALIFIER).getBuffer(),
        serialized(KeyValue.firstOnColumn(ROW, FAMILY, QUALIFIER)));
    assertArrayEquals(
        KeyValueUtil.createLastOnRow(
                ROW, 0, ROW.length, FAMILY, 0, FAMILY.length, QUALIFIER, 0, QUALIFIER.length)
            .getBuffer(),
        serialized(KeyValue.lastOnColumn(ROW, FAMILY, QUALIFIER)));
  }

  @Test
  void toStringMatchesHBaseIncludingSpecialTimestampsAndSequenceId() {
    org.apache.hadoop.hbase.KeyValue hbase = KeyValueUtil.createLastOnRow(ROW);
    hbase.setSequenceId(42);
    assertEquals(hbase.toString(), KeyValue.lastOnRow(ROW).withSequenceId(42).toString());
    assertEquals("row-1//LATEST_TIMESTAMP/Minimum/vlen=0/seqid=42", hbase.toString());
    assertEquals(
        "row-1/cf:q\\x80\\x00/OLDEST_TIMESTAMP/Minimum/vlen=0/seqid=0",
        KeyValue.lastOnColumn(ROW, FAMILY, QUALIFIER).toString());
  }

  @Test
  void equalityIsOverTheKeyOnly() {
    KeyValue a = KeyValue.create(ROW, FAMILY, QUALIFIER, 5L, CellType.PUT, VALUE);
    KeyValue sameKey =
        KeyValue.create(ROW, FAMILY, QUALIFIER, 5L, CellType.PUT, Bytes.toBytes("other"))
            .withSequenceId(9);
    KeyValue otherType = KeyValue.create(ROW, FAMILY, QUALIFIER, 5L, CellType.DELETE, VALUE);
    KeyValue otherTimestamp = KeyValue.create(ROW, FAMILY, QUALIFIER, 6L, CellType.PUT, VALUE);
    assertEquals(a, sameKey);
    assertEquals(a.hashCode(), sameKey.hashCode());
    assertNotEquals(a, otherType);
    assertNotEquals(a, otherTimestamp);
    assertNotEquals(a, new Object());
  }

  @Test
  void withSequenceIdKeepsTheBytes() {
    KeyValue a = KeyValue.create(ROW, FAMILY, QUALIFIER, 5L, CellType.PUT, VALUE);
    KeyValue b = a.withSequenceId(77);
    assertEquals(0, a.sequenceId());
    assertEquals(77, b.sequenceId());
    assertSame(a.segment().heapBase().orElseThrow(), b.segment().heapBase().orElseThrow());
  }

  @Test
  void copyOfAViewIsIndependentOfItsMemory() {
    KeyValue original =
        KeyValue.create(
            ROW, FAMILY, QUALIFIER, 5L, CellType.PUT, VALUE, List.of(new Tag((byte) 3, VALUE)));
    byte[] memory = serialized(original);
    KeyValueCell view = new KeyValueCell(MemorySegment.ofArray(memory), 0, memory.length, true, 12);
    KeyValue copy = KeyValue.copyOf(view);
    Arrays.fill(memory, (byte) 0);
    assertArrayEquals(serialized(original), serialized(copy));
    assertEquals(12, copy.sequenceId());
    assertEquals(original.tags(), copy.tags());
    assertSame(original, KeyValue.copyOf(original));
  }

  @Test
  void aCopyResolvesTheLatestTimestampAndLeavesTheSourceAlone() {
    KeyValue now =
        KeyValue.create(
            ROW,
            FAMILY,
            QUALIFIER,
            KeyValue.LATEST_TIMESTAMP,
            CellType.PUT,
            VALUE,
            List.of(new Tag((byte) 3, VALUE)));
    KeyValue resolved = KeyValue.copyOf(now, 1234);
    assertEquals(1234, resolved.timestamp());
    assertEquals(KeyValue.LATEST_TIMESTAMP, now.timestamp());
    assertArrayEquals(
        serialized(
            KeyValue.create(
                ROW,
                FAMILY,
                QUALIFIER,
                1234,
                CellType.PUT,
                VALUE,
                List.of(new Tag((byte) 3, VALUE)))),
        serialized(resolved));
    KeyValue explicit = KeyValue.create(ROW, FAMILY, QUALIFIER, 5L, CellType.PUT, VALUE);
    assertSame(explicit, KeyValue.copyOf(explicit, 1234), "nothing to resolve: no copy");
    assertSame(now, KeyValue.copyOf(now, KeyValue.LATEST_TIMESTAMP), "nothing to resolve");

    byte[] out = new byte[now.length() + 3];
    assertEquals(now.length(), KeyValue.writeTo(now, MemorySegment.ofArray(out), 3, 99));
    KeyValueCell view = new KeyValueCell(MemorySegment.ofArray(out), 3, now.length(), true, 0);
    assertEquals(99, view.timestamp());
    byte[] kept = new byte[explicit.length()];
    KeyValue.writeTo(explicit, MemorySegment.ofArray(kept), 0, 99);
    assertArrayEquals(serialized(explicit), kept, "an explicit timestamp is copied as it is");
  }

  /**
   * A cell whose key comes from {@code keySource} and whose value and tags sit in two other
   * segments, at offsets that differ from the contiguous layout.
   */
  private record SplitCell(KeyValue keySource, byte[] valueBytes, byte[] tagBytes) implements Cell {

    private static final int VALUE_AT = 3;
    private static final int TAGS_AT = 7;

    @Override
    public MemorySegment segment() {
      return keySource.segment();
    }

    @Override
    public long offset() {
      return keySource.offset();
    }

    @Override
    public int length() {
      return (int) KeyValueLayout.cellLength(keyLength(), valueBytes.length, tagBytes.length, true);
    }

    @Override
    public int keyLength() {
      return keySource.keyLength();
    }

    @Override
    public int valueLength() {
      return valueBytes.length;
    }

    @Override
    public int rowLength() {
      return keySource.rowLength();
    }

    @Override
    public int familyLength() {
      return keySource.familyLength();
    }

    @Override
    public int tagsLength() {
      return tagBytes.length;
    }

    @Override
    public long sequenceId() {
      return 9;
    }

    @Override
    public MemorySegment valueSegment() {
      byte[] memory = new byte[VALUE_AT + valueBytes.length];
      System.arraycopy(valueBytes, 0, memory, VALUE_AT, valueBytes.length);
      return MemorySegment.ofArray(memory);
    }

    @Override
    public long valueOffset() {
      return VALUE_AT;
    }

    @Override
    public MemorySegment tagsSegment() {
      byte[] memory = new byte[TAGS_AT + tagBytes.length];
      System.arraycopy(tagBytes, 0, memory, TAGS_AT, tagBytes.length);
      return MemorySegment.ofArray(memory);
    }

    @Override
    public long tagsOffset() {
      return TAGS_AT;
    }
  }

  @Test
  void valueAndTagsAreReadFromTheirOwnSegments() {
    KeyValue keySource = KeyValue.create(ROW, FAMILY, QUALIFIER, 5L, CellType.PUT, VALUE);
    KeyValue expected =
        KeyValue.create(
                ROW,
                FAMILY,
                QUALIFIER,
                5L,
                CellType.PUT,
                Bytes.toBytes("other"),
                List.of(new Tag((byte) 3, VALUE)))
            .withSequenceId(9);
    SplitCell split = new SplitCell(keySource, expected.valueArray(), expected.tagsArray());
    assertArrayEquals(expected.valueArray(), split.valueArray());
    assertEquals(expected.tags(), split.tags());
    KeyValue copy = KeyValue.copyOf(split);
    assertArrayEquals(serialized(expected), serialized(copy));
    assertEquals(9, copy.sequenceId());
  }

  @Test
  void limitsAreEnforcedWithClearMessages() {
    IllegalArgumentException row =
        assertThrows(
            IllegalArgumentException.class,
            () -> KeyValue.firstOnRow(new byte[KeyValueLayout.MAX_ROW_LENGTH + 1]));
    assertEquals("row length: expected at most 32767, found 32768", row.getMessage());
    IllegalArgumentException family =
        assertThrows(
            IllegalArgumentException.class,
            () -> KeyValue.firstOnColumn(ROW, new byte[128], QUALIFIER));
    assertEquals("family length: expected at most 127, found 128", family.getMessage());
    List<Tag> tooManyTags = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      tooManyTags.add(new Tag((byte) 1, new byte[30_000]));
    }
    IllegalArgumentException tags =
        assertThrows(
            IllegalArgumentException.class,
            () -> KeyValue.create(ROW, FAMILY, QUALIFIER, 1L, CellType.PUT, VALUE, tooManyTags));
    assertEquals("tags length: expected at most 65535, found 90009", tags.getMessage());
    IllegalArgumentException tag =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Tag((byte) 1, new byte[KeyValueLayout.MAX_TAG_VALUE_LENGTH + 1]));
    assertEquals("tag value length: expected at most 65532, found 65533", tag.getMessage());
    assertThrows(
        NullPointerException.class,
        () -> KeyValue.create(ROW, null, QUALIFIER, 1L, CellType.PUT, VALUE));
  }

  @Test
  void largestRowAndFamilyAreAccepted() {
    byte[] row = new byte[KeyValueLayout.MAX_ROW_LENGTH];
    byte[] family = new byte[KeyValueLayout.MAX_FAMILY_LENGTH];
    KeyValue kv = KeyValue.create(row, family, QUALIFIER, 1L, CellType.PUT, VALUE);
    org.apache.hadoop.hbase.KeyValue hbase =
        new org.apache.hadoop.hbase.KeyValue(
            row, family, QUALIFIER, 1L, org.apache.hadoop.hbase.KeyValue.Type.Put, VALUE);
    assertArrayEquals(hbase.getBuffer(), serialized(kv));
    assertEquals(KeyValueLayout.MAX_ROW_LENGTH, kv.rowLength());
    assertEquals(KeyValueLayout.MAX_FAMILY_LENGTH, kv.familyLength());
  }

  @Test
  void tagValuesAreCopiedInAndOut() {
    byte[] value = {1, 2};
    Tag tag = new Tag((byte) 4, value);
    value[0] = 9;
    assertArrayEquals(new byte[] {1, 2}, tag.value());
    tag.value()[1] = 9;
    assertEquals(new Tag((byte) 4, new byte[] {1, 2}), tag);
    assertEquals("Tag[type=4, value=\\x01\\x02]", tag.toString());
  }

  @Test
  void malformedTagsAreRejected() {
    MemorySegment zeroLength = MemorySegment.ofArray(new byte[] {0, 0, 7});
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Tag.decodeAll(zeroLength, 0, 3));
    assertEquals("tag at offset 0: expected a length between 1 and 1, found 0", e.getMessage());
    MemorySegment overrun = MemorySegment.ofArray(new byte[] {0, 5, 7, 1});
    assertThrows(IllegalArgumentException.class, () -> Tag.decodeAll(overrun, 0, 4));
    MemorySegment truncated = MemorySegment.ofArray(new byte[] {0, 1});
    IllegalArgumentException shortTag =
        assertThrows(IllegalArgumentException.class, () -> Tag.decodeAll(truncated, 0, 2));
    assertEquals(
        "tag at offset 0: expected at least 3 bytes before the end of the tags at 2, found 2",
        shortTag.getMessage());
  }
}
