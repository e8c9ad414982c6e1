package dev.cellar.cell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A key copy keeps every field of the cell, reads its value in place and its tags from the copy. */
class KeyCopyCellTest {

  @Test
  void everyFieldMatchesTheSourceAndTheValueIsNotCopied() {
    KeyValue source = KeyValue.create("row".getBytes(), "fam".getBytes(), "qual".getBytes(), 42,
        CellType.PUT, "value".getBytes(), List.of(new Tag((byte) 7, "tag".getBytes())))
        .withSequenceId(9);
    KeyCopyCell copy = KeyCopyCell.of(source);

    assertEquals(0, CellComparator.INSTANCE.compare(source, copy));
    assertEquals(source.length(), copy.length());
    assertEquals(source.tagsLength(), copy.tagsLength());
    assertArrayEquals(source.tagsArray(), copy.tagsArray());
    assertArrayEquals("value".getBytes(), copy.valueArray());
    assertEquals(9, copy.sequenceId());
    assertEquals(42, copy.timestamp());
    assertEquals(CellType.PUT, copy.type());

    source.valueSegment().set(KeyValueLayout.BYTE, source.valueOffset(), (byte) 'V');
    assertArrayEquals("Value".getBytes(), copy.valueArray(), "the value is a view");
    MemorySegment key = copy.segment();
    assertEquals(KeyValueLayout.KEY_OFFSET + source.keyLength() + source.tagsLength(),
        key.byteSize(), "only the key and tags are copied");
  }
}
