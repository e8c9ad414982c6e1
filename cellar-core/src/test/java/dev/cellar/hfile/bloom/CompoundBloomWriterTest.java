package dev.cellar.hfile.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.config.InvalidConfigException;
import dev.cellar.memory.Buf;
import dev.cellar.schema.BloomType;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/** The writer's key handling and its protocol with the file writer. */
class CompoundBloomWriterTest {

  private static final byte[] FAMILY = {'f'};

  /** Chunks of 16 bytes, no folding allowance: 13 keys each at 1%. */
  private static final BloomConfig SMALL = new BloomConfig(0.01f, 0, 16, HashType.MURMUR, 3);

  private static KeyValue put(String row, String qualifier) {
    return KeyValue.create(
        Bytes.toBytes(row), FAMILY, Bytes.toBytes(qualifier), 1, CellType.PUT, new byte[0]);
  }

  private static KeyValue marker(String row, CellType type) {
    return KeyValue.create(Bytes.toBytes(row), FAMILY, new byte[0], 1, type, new byte[0]);
  }

  @Test
  void rowBloomAddsEachRowOnce() {
    CompoundBloomWriter writer = CompoundBloomWriter.general(BloomType.ROW, SMALL);
    writer.add(put("a", "x"));
    writer.add(put("a", "y"));
    writer.add(put("b", "x"));
    assertEquals(2, writer.keyCount());
    assertArrayEquals(Bytes.toBytes("b"), writer.lastKey());
  }

  @Test
  void rowColBloomAddsEachColumnOnce() {
    CompoundBloomWriter writer = CompoundBloomWriter.general(BloomType.ROWCOL, SMALL);
    writer.add(put("a", "x"));
    writer.add(
        KeyValue.create(
            Bytes.toBytes("a"), FAMILY, Bytes.toBytes("x"), 0, CellType.PUT, new byte[0]));
    writer.add(put("a", "y"));
    writer.add(put("b", "x"));
    assertEquals(3, writer.keyCount());
    assertArrayEquals(BloomKeys.rowCol(Bytes.toBytes("b"), Bytes.toBytes("x")), writer.lastKey());
  }

  @Test
  void rowPrefixBloomAddsEachPrefixOnce() {
    CompoundBloomWriter writer =
        CompoundBloomWriter.general(BloomType.ROWPREFIX_FIXED_LENGTH, SMALL);
    writer.add(put("ab", "x"));
    writer.add(put("abc1", "x"));
    writer.add(put("abc2", "x"));
    writer.add(put("abd", "x"));
    assertEquals(3, writer.keyCount());
    assertArrayEquals(Bytes.toBytes("abd"), writer.lastKey());
  }

  @Test
  void deleteFamilyBloomAddsMarkedRowsAndCountsMarkers() {
    CompoundBloomWriter writer = CompoundBloomWriter.deleteFamily(SMALL);
    assertTrue(writer.isDeleteFamilyBloom());
    writer.add(marker("a", CellType.DELETE_FAMILY));
    writer.add(marker("a", CellType.DELETE_FAMILY_VERSION));
    writer.add(put("a", "x"));
    writer.add(put("b", "x"));
    writer.add(marker("c", CellType.DELETE));
    writer.add(marker("d", CellType.DELETE_FAMILY_VERSION));
    assertEquals(2, writer.keyCount());
    assertEquals(3, writer.deleteFamilyCount());
    assertArrayEquals(Bytes.toBytes("d"), writer.lastKey());
  }

  @Test
  void keysOutOfOrderAreRejected() {
    CompoundBloomWriter writer = CompoundBloomWriter.general(BloomType.ROW, SMALL);
    writer.add(put("b", "x"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> writer.add(put("a", "x")));
    assertTrue(e.getMessage().contains("file order"), e.getMessage());
  }

  @Test
  void aChunkIsReadyWhenItHoldsMaxKeysAndFullChunksDoNotFold() {
    ChunkSizing sizing = ChunkSizing.forHint(16, 0, 0.01f);
    CompoundBloomWriter writer = CompoundBloomWriter.general(BloomType.ROW, SMALL);
    for (int i = 0; i < sizing.maxKeys() - 1; i++) {
      writer.add(put("row" + (char) ('a' + i), "q"));
      assertFalse(writer.hasReadyChunk());
    }
    writer.add(put("rowz", "q"));
    assertTrue(writer.hasReadyChunk());
    ReadyChunk chunk = writer.takeReadyChunk();
    assertEquals(sizing.maxKeys(), chunk.keyCount());
    assertEquals(sizing.byteSize(), chunk.payload().length);
    assertArrayEquals(Bytes.toBytes("rowa"), chunk.firstKey());
    assertFalse(writer.hasReadyChunk());
    assertThrows(NoSuchElementException.class, writer::takeReadyChunk);
    writer.chunkWritten(0, 50);
    assertNull(writer.finishLastChunk());
    assertTrue(writer.metaPayload().length > BloomMeta.FIXED_SIZE);
  }

  @Test
  void aFullChunkIsClosedByTheNextKeyEvenWithoutAPoll() {
    ChunkSizing sizing = ChunkSizing.forHint(16, 0, 0.01f);
    CompoundBloomWriter writer = CompoundBloomWriter.general(BloomType.ROW, SMALL);
    for (int i = 0; i < 3 * sizing.maxKeys() + 1; i++) {
      writer.add(put(String.format("row%03d", i), "q"));
    }
    assertTrue(writer.hasReadyChunk());
    assertArrayEquals(Bytes.toBytes("row000"), writer.takeReadyChunk().firstKey());
    assertArrayEquals(
        Bytes.toBytes(String.format("row%03d", sizing.maxKeys())),
        writer.takeReadyChunk().firstKey());
    assertTrue(writer.hasReadyChunk());
    writer.takeReadyChunk();
    assertFalse(writer.hasReadyChunk());
    IllegalStateException notReported =
        assertThrows(IllegalStateException.class, writer::metaPayload);
    assertTrue(notReported.getMessage().contains("open chunk"), notReported.getMessage());
    ReadyChunk last = writer.finishLastChunk();
    assertEquals(1, last.keyCount());
    writer.chunkWritten(10, 50);
    writer.chunkWritten(20, 50);
    writer.chunkWritten(30, 50);
    assertThrows(IllegalStateException.class, writer::metaPayload);
    writer.chunkWritten(40, 50);
    CompoundBloomReader reader =
        CompoundBloomReader.parse(Buf.wrap(writer.metaPayload()), BloomType.ROW);
    assertEquals(4, reader.chunkCount());
    assertEquals(3L * sizing.maxKeys() + 1, reader.keyCount());
  }

  @Test
  void theLastChunkFolds() {
    BloomConfig config = new BloomConfig(0.01f, 7, 1024, HashType.MURMUR, 0);
    CompoundBloomWriter writer = CompoundBloomWriter.general(BloomType.ROW, config);
    for (int i = 0; i < 10; i++) {
      writer.add(put("row" + i, "q"));
    }
    assertFalse(writer.hasReadyChunk());
    ReadyChunk last = writer.finishLastChunk();
    // 1024 bytes and 853 keys halve while maxKeys > 20: 426, 213, 106, 53, 26, 13 -> 16 bytes.
    assertEquals(16, last.payload().length);
    assertEquals(10, last.keyCount());
  }

  @Test
  void protocolMisuseIsReported() {
    CompoundBloomWriter writer = CompoundBloomWriter.general(BloomType.ROW, SMALL);
    assertTrue(writer.isEmpty());
    assertNull(writer.lastKey());
    assertNull(writer.finishLastChunk());
    assertThrows(IllegalStateException.class, writer::metaPayload);
    assertThrows(IllegalStateException.class, () -> writer.chunkWritten(0, 10));
    for (int i = 0; i < 30; i++) {
      writer.add(put(String.format("r%02d", i), "q"));
    }
    assertThrows(IllegalStateException.class, writer::finishLastChunk);
    writer.takeReadyChunk();
    assertThrows(IllegalArgumentException.class, () -> writer.chunkWritten(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> writer.chunkWritten(0, 0));
    writer.chunkWritten(100, 10);
    writer.takeReadyChunk();
    assertThrows(IllegalArgumentException.class, () -> writer.chunkWritten(100, 10));
  }

  @Test
  void creationChecksTypeAndPrefixLength() {
    assertThrows(
        IllegalArgumentException.class,
        () -> CompoundBloomWriter.general(BloomType.NONE, BloomConfig.defaults()));
    InvalidConfigException e =
        assertThrows(
            InvalidConfigException.class,
            () ->
                CompoundBloomWriter.general(
                    BloomType.ROWPREFIX_FIXED_LENGTH, BloomConfig.defaults()));
    assertEquals(BloomConfig.PREFIX_LENGTH_KEY, e.key());
  }
}
