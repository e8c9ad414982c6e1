package dev.cellar.hfile.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.BloomType;
import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damaged meta payloads give a {@link CorruptBloomException} naming the field, never an index error
 * or a reader that answers wrongly.
 */
class CorruptBloomMetaTest {

  private static final int TOTAL_BYTE_SIZE = 4;
  private static final int HASH_COUNT = 12;
  private static final int HASH_TYPE = 16;
  private static final int KEY_COUNT = 20;
  private static final int MAX_KEYS = 28;
  private static final int NUM_CHUNKS = 36;
  private static final int COMPARATOR_NAME = 40;

  /** A valid payload with three chunks. */
  private static byte[] validMeta(BloomType type) {
    CompoundBloomWriter writer =
        CompoundBloomWriter.general(type, new BloomConfig(0.01f, 0, 16, HashType.MURMUR, 2));
    long offset = 100;
    for (int i = 0; i < 40; i++) {
      byte[] row = {'r', (byte) (i / 10), (byte) i};
      writer.add(
          KeyValue.create(row, new byte[] {'f'}, new byte[] {'q'}, 1, CellType.PUT, new byte[0]));
      while (writer.hasReadyChunk()) {
        writer.takeReadyChunk();
        writer.chunkWritten(offset, 50);
        offset += 100;
      }
    }
    if (writer.finishLastChunk() != null) {
      writer.chunkWritten(offset, 50);
    }
    return writer.metaPayload();
  }

  private static CorruptBloomException corrupt(byte[] meta, BloomType type) {
    return assertThrows(
        CorruptBloomException.class, () -> CompoundBloomReader.parse(Buf.wrap(meta), type));
  }

  private static byte[] withInt(byte[] meta, int offset, int value) {
    byte[] copy = meta.clone();
    ByteBuffer.wrap(copy).putInt(offset, value);
    return copy;
  }

  private static byte[] withLong(byte[] meta, int offset, long value) {
    byte[] copy = meta.clone();
    ByteBuffer.wrap(copy).putLong(offset, value);
    return copy;
  }

  @Test
  void theValidPayloadParses() {
    CompoundBloomReader reader =
        CompoundBloomReader.parse(Buf.wrap(validMeta(BloomType.ROW)), BloomType.ROW);
    assertTrue(reader.chunkCount() >= 3, reader.toString());
    assertEquals(40, reader.keyCount());
  }

  @ParameterizedTest
  @EnumSource(
      value = BloomType.class,
      names = {"ROW", "ROWCOL"})
  void everyTruncationIsReportedWithItsField(BloomType type) {
    byte[] meta = validMeta(type);
    for (int length = 0; length < meta.length; length++) {
      CorruptBloomException e = corrupt(Arrays.copyOf(meta, length), type);
      assertTrue(e.offset() <= length, e.getMessage());
      assertTrue(e.getMessage().contains("expected"), e.getMessage());
    }
  }

  @Test
  void pooledCompositeBuffersParseAndReportTruncationAlike() {
    byte[] meta = validMeta(BloomType.ROW);
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 64, 16, 0))) {
      for (int length : new int[] {meta.length, meta.length - 3}) {
        Buf buf = allocator.allocate(length);
        try {
          assertFalse(buf.isSingleSegment());
          buf.putBytes(0, meta, 0, length);
          if (length == meta.length) {
            assertEquals(40, CompoundBloomReader.parse(buf, BloomType.ROW).keyCount());
          } else {
            assertThrows(
                CorruptBloomException.class, () -> CompoundBloomReader.parse(buf, BloomType.ROW));
          }
        } finally {
          buf.release();
        }
      }
    }
  }

  @Test
  void badVersion() {
    CorruptBloomException e = corrupt(withInt(validMeta(BloomType.ROW), 0, 2), BloomType.ROW);
    assertEquals("version", e.field());
    assertEquals("version at offset 0: expected 3, found 2", e.getMessage());
  }

  @Test
  void negativeCounts() {
    byte[] meta = validMeta(BloomType.ROW);
    assertEquals(
        "totalByteSize", corrupt(withLong(meta, TOTAL_BYTE_SIZE, -1), BloomType.ROW).field());
    assertEquals("hashCount", corrupt(withInt(meta, HASH_COUNT, -7), BloomType.ROW).field());
    assertEquals("totalKeyCount", corrupt(withLong(meta, KEY_COUNT, -40), BloomType.ROW).field());
    assertEquals("totalMaxKeys", corrupt(withLong(meta, MAX_KEYS, -1), BloomType.ROW).field());
    CorruptBloomException chunks = corrupt(withInt(meta, NUM_CHUNKS, -3), BloomType.ROW);
    assertEquals("numChunks", chunks.field());
    assertEquals(NUM_CHUNKS, chunks.offset());
    assertTrue(chunks.getMessage().contains("found -3"), chunks.getMessage());
  }

  @Test
  void implausibleFields() {
    byte[] meta = validMeta(BloomType.ROW);
    assertEquals("hashCount", corrupt(withInt(meta, HASH_COUNT, 0), BloomType.ROW).field());
    assertEquals("hashCount", corrupt(withInt(meta, HASH_COUNT, 100_000), BloomType.ROW).field());
    assertEquals("hashType", corrupt(withInt(meta, HASH_TYPE, 3), BloomType.ROW).field());
    assertEquals("numChunks", corrupt(withInt(meta, NUM_CHUNKS, 0), BloomType.ROW).field());
    assertEquals("totalKeyCount", corrupt(withLong(meta, KEY_COUNT, 1), BloomType.ROW).field());
  }

  @Test
  void chunkCountMismatch() {
    byte[] meta = validMeta(BloomType.ROW);
    int numChunks = ByteBuffer.wrap(meta).getInt(NUM_CHUNKS);
    CorruptBloomException tooMany =
        corrupt(withInt(meta, NUM_CHUNKS, numChunks + 1), BloomType.ROW);
    assertTrue(
        tooMany.field().equals("numChunks")
            || tooMany.field().startsWith("bloom index entry " + numChunks),
        tooMany.getMessage());
    CorruptBloomException tooFew = corrupt(withInt(meta, NUM_CHUNKS, numChunks - 1), BloomType.ROW);
    assertEquals("end of payload", tooFew.field());
    CorruptBloomException absurd =
        corrupt(withInt(meta, NUM_CHUNKS, Integer.MAX_VALUE), BloomType.ROW);
    assertEquals("numChunks", absurd.field());
  }

  @Test
  void comparatorMustFitTheBloomType() {
    assertEquals("comparator name", corrupt(validMeta(BloomType.ROW), BloomType.ROWCOL).field());
    assertEquals("comparator name", corrupt(validMeta(BloomType.ROWCOL), BloomType.ROW).field());
    byte[] meta = validMeta(BloomType.ROW);
    meta[COMPARATOR_NAME] = 100;
    assertEquals("comparator name length", corrupt(meta, BloomType.ROW).field());
  }

  @Test
  void indexEntriesMustAscendAndBeWellFormed() {
    byte[] meta = validMeta(BloomType.ROW);
    int firstEntry = COMPARATOR_NAME + 1;
    CorruptBloomException offset = corrupt(withLong(meta, firstEntry, -5), BloomType.ROW);
    assertEquals("bloom index entry 0 blockOffset", offset.field());
    CorruptBloomException size = corrupt(withInt(meta, firstEntry + 8, 0), BloomType.ROW);
    assertEquals("bloom index entry 0 blockOnDiskSize", size.field());
    byte[] keyLength = meta.clone();
    keyLength[firstEntry + 12] = 120;
    assertTrue(corrupt(keyLength, BloomType.ROW).field().startsWith("bloom index entry"));
    byte[] order = meta.clone();
    order[firstEntry + 13 + 1] = (byte) 0xFF;
    assertEquals("bloom index entry 1 key", corrupt(order, BloomType.ROW).field());

    byte[] rowCol = validMeta(BloomType.ROWCOL);
    int rowColEntry = COMPARATOR_NAME + 1 + BloomMeta.CELL_COMPARATOR_NAME.length();
    byte[] badRowLength = withInt(rowCol, rowColEntry + 13, 0x7FFF0000);
    assertEquals("bloom index entry 0 key", corrupt(badRowLength, BloomType.ROWCOL).field());
  }

  /** Any single damaged byte either still parses or is reported; nothing else escapes. */
  @Property(tries = 400)
  void singleByteDamageIsReportedOrHarmless(
      @ForAll @IntRange(min = 0, max = 10_000) int position, @ForAll byte value) {
    for (BloomType type : new BloomType[] {BloomType.ROW, BloomType.ROWCOL}) {
      byte[] meta = validMeta(type);
      meta[position % meta.length] = value;
      try {
        CompoundBloomReader reader = CompoundBloomReader.parse(Buf.wrap(meta), type);
        assertTrue(reader.chunkCount() >= 1);
      } catch (CorruptBloomException expected) {
        assertTrue(expected.getMessage().contains("expected"), expected.getMessage());
      }
    }
  }

  @Test
  void emptyOrOversizedChunkPayloadIsReportedAtProbeTime() {
    CompoundBloomReader reader =
        CompoundBloomReader.parse(Buf.wrap(validMeta(BloomType.ROW)), BloomType.ROW);
    byte[] key = {'r', 1, 15};
    CorruptBloomException e =
        assertThrows(
            CorruptBloomException.class,
            () -> reader.mightContain(key, 0, key.length, (offset, size) -> Buf.wrap(new byte[0])));
    assertEquals("bloom chunk", e.field());
  }
}
