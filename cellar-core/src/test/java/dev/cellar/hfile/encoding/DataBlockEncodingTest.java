package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.cell.Tag;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The encoding enum, the encoders' refusals and the seekers' framing checks. */
class DataBlockEncodingTest {

  private static final EncodingContext TAGS_AND_MVCC = new EncodingContext(true, true, true);
  private static final byte[] FAMILY = {'c', 'f'};

  private static KeyValue cell(String row, byte[] family, List<Tag> tags) {
    return KeyValue.create(
        row.getBytes(), family, new byte[] {'q'}, 1L, CellType.PUT, new byte[] {'v'}, tags);
  }

  @Test
  void idsAndNamesAreHBases() {
    assertEquals(0, DataBlockEncoding.NONE.id());
    assertEquals(2, DataBlockEncoding.PREFIX.id());
    assertEquals(3, DataBlockEncoding.DIFF.id());
    assertEquals(4, DataBlockEncoding.FAST_DIFF.id());
    assertEquals(7, DataBlockEncoding.ROW_INDEX_V1.id());
    for (DataBlockEncoding encoding : DataBlockEncoding.values()) {
      assertSame(encoding, DataBlockEncoding.fromId(encoding.id()));
      assertSame(encoding, DataBlockEncoding.fromName(encoding.name()));
      org.apache.hadoop.hbase.io.encoding.DataBlockEncoding hbase =
          org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.valueOf(encoding.name());
      assertEquals(hbase.getId(), encoding.id());
      assertEquals(encoding != DataBlockEncoding.NONE, encoding.isEncoded());
    }
  }

  @Test
  void removedAndUnknownEncodingsAreRefusedClearly() {
    assertTrue(message(() -> DataBlockEncoding.fromId((short) 1)).contains("never implemented"));
    assertTrue(message(() -> DataBlockEncoding.fromId((short) 5)).contains("COPY_KEY"));
    assertTrue(message(() -> DataBlockEncoding.fromId((short) 6)).contains("PREFIX_TREE"));
    assertTrue(message(() -> DataBlockEncoding.fromId((short) 99)).contains("FAST_DIFF (4)"));
    assertTrue(message(() -> DataBlockEncoding.fromName("PREFIX_TREE")).contains("removed"));
    assertTrue(message(() -> DataBlockEncoding.fromName("fast_diff")).contains("not an HBase"));
  }

  private static String message(Runnable call) {
    return assertThrows(IllegalArgumentException.class, call::run).getMessage();
  }

  @ParameterizedTest
  @EnumSource(DataBlockEncoding.class)
  void encodersRefuseWhatTheFileCannotHold(DataBlockEncoding encoding) {
    BlockEncoder noTags = Encodings.newEncoder(encoding, new EncodingContext(false, true, true));
    List<Tag> tags = List.of(new Tag((byte) 1, new byte[] {'t'}));
    assertThrows(IllegalArgumentException.class, () -> noTags.append(cell("r", FAMILY, tags)));
    assertEquals(0, noTags.cellCount());
    assertThrows(IllegalStateException.class, noTags::finishBlock);
    BlockEncoder encoder = Encodings.newEncoder(encoding, TAGS_AND_MVCC);
    encoder.append(cell("r1", FAMILY, tags));
    if (encoding == DataBlockEncoding.NONE || encoding == DataBlockEncoding.ROW_INDEX_V1) {
      encoder.append(cell("r2", new byte[] {'x'}, tags));
      assertEquals(2, encoder.cellCount());
    } else {
      int size = encoder.encodedSize();
      assertThrows(
          IllegalArgumentException.class, () -> encoder.append(cell("r2", new byte[] {'x'}, tags)));
      assertEquals(size, encoder.encodedSize());
      assertEquals(1, encoder.cellCount());
    }
    assertTrue(encoder.finishBlock().length > 0);
    assertEquals(0, encoder.encodedSize());
    assertEquals(0, encoder.unencodedSize());
  }

  @ParameterizedTest
  @EnumSource(
      value = DataBlockEncoding.class,
      names = {"PREFIX", "DIFF", "FAST_DIFF"})
  void malformedTagsAreRefusedBeforeAnythingIsWritten(DataBlockEncoding encoding) {
    KeyValue good = cell("r1", FAMILY, List.of(new Tag((byte) 1, new byte[] {'t'})));
    byte[] bytes = good.segment().toArray(ValueLayout.JAVA_BYTE);
    int tagAt = (int) good.tagsOffset();
    bytes[tagAt] = 0;
    bytes[tagAt + 1] = 9;
    KeyValue broken =
        KeyValue.copyOf(new KeyValueCell(MemorySegment.ofArray(bytes), 0, bytes.length, true, 0));
    BlockEncoder encoder = Encodings.newEncoder(encoding, TAGS_AND_MVCC);
    encoder.append(good);
    int size = encoder.encodedSize();
    assertThrows(IllegalArgumentException.class, () -> encoder.append(broken));
    assertEquals(size, encoder.encodedSize());
  }

  @ParameterizedTest
  @EnumSource(DataBlockEncoding.class)
  void seekersCheckTheirState(DataBlockEncoding encoding) {
    BlockSeeker seeker = Encodings.newSeeker(encoding, TAGS_AND_MVCC);
    assertFalse(seeker.isValid());
    assertFalse(seeker.next());
    assertThrows(IllegalStateException.class, seeker::rewind);
    assertThrows(IllegalStateException.class, seeker::current);
    assertThrows(IllegalStateException.class, seeker::firstKeyInBlock);
    assertThrows(MalformedBlockException.class, () -> seeker.setBlock(Buf.wrap(new byte[0])));
    assertThrows(IllegalStateException.class, seeker::rewind);
  }

  @ParameterizedTest
  @EnumSource(
      value = DataBlockEncoding.class,
      names = {"PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1"})
  void aBlockOfAnotherEncodingIsMalformedAtOffsetZero(DataBlockEncoding encoding) {
    DataBlockEncoding other =
        encoding == DataBlockEncoding.PREFIX ? DataBlockEncoding.DIFF : DataBlockEncoding.PREFIX;
    BlockEncoder encoder = Encodings.newEncoder(other, TAGS_AND_MVCC);
    encoder.append(cell("r", FAMILY, List.of()));
    byte[] payload = encoder.finishBlock();
    BlockSeeker seeker = Encodings.newSeeker(encoding, TAGS_AND_MVCC);
    MalformedBlockException e =
        assertThrows(MalformedBlockException.class, () -> seeker.setBlock(Buf.wrap(payload)));
    assertEquals(0, e.offset());
    assertSame(encoding, e.encoding());
    assertEquals("id " + other.id(), e.found());
  }

  @ParameterizedTest
  @EnumSource(DataBlockEncoding.class)
  void aPayloadInSeveralSegmentsIsRefused(DataBlockEncoding encoding) {
    BlockEncoder encoder = Encodings.newEncoder(encoding, TAGS_AND_MVCC);
    for (int i = 0; i < 100; i++) {
      encoder.append(cell("row-" + i, FAMILY, List.of()));
    }
    byte[] payload = encoder.finishBlock();
    int bufferSize = 256;
    assertTrue(payload.length > bufferSize);
    try (BufAllocator small = new BufAllocator(new BufAllocatorConfig(true, bufferSize, 64, 0))) {
      Buf buf = small.allocate(payload.length);
      try {
        assertFalse(buf.isSingleSegment());
        BlockSeeker seeker = Encodings.newSeeker(encoding, TAGS_AND_MVCC);
        assertThrows(IllegalArgumentException.class, () -> seeker.setBlock(buf));
      } finally {
        buf.release();
      }
    }
  }
}
