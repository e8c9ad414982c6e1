package dev.cellar.hfile.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.schema.BloomType;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GeneralBloomLookupTest {

  private static final byte[] FAMILY = {'f'};

  /** A written bloom with its chunks, and a loader that counts loads. */
  private static final class Written {
    final Map<Long, byte[]> chunks = new HashMap<>();
    final AtomicInteger loads = new AtomicInteger();
    CompoundBloomReader reader;
    byte[] lastKey;

    ChunkLoader loader() {
      return (offset, size) -> {
        loads.incrementAndGet();
        return Buf.wrap(chunks.get(offset));
      };
    }
  }

  private static Written write(BloomType type, int prefixLength, List<KeyValue> cells) {
    CompoundBloomWriter writer =
        CompoundBloomWriter.general(
            type, new BloomConfig(0.01f, 7, 64, HashType.MURMUR, prefixLength));
    Written written = new Written();
    long offset = 0;
    for (KeyValue cell : cells) {
      writer.add(cell);
      while (writer.hasReadyChunk()) {
        written.chunks.put(offset, writer.takeReadyChunk().payload());
        writer.chunkWritten(offset, 100);
        offset += 100;
      }
    }
    ReadyChunk last = writer.finishLastChunk();
    written.chunks.put(offset, last.payload());
    writer.chunkWritten(offset, 100);
    written.reader = CompoundBloomReader.parse(Buf.wrap(writer.metaPayload()), type);
    written.lastKey = writer.lastKey();
    return written;
  }

  private static KeyValue cell(String row, String qualifier, CellType type) {
    return KeyValue.create(
        Bytes.toBytes(row), FAMILY, Bytes.toBytes(qualifier), 1, type, new byte[0]);
  }

  @Test
  void rowLookupsSkipKeysAfterTheLastBloomKeyWithoutLoading() throws IOException {
    Written written =
        write(
            BloomType.ROW, 0, List.of(cell("b", "q", CellType.PUT), cell("d", "q", CellType.PUT)));
    GeneralBloomLookup lookup = new GeneralBloomLookup(written.reader, written.lastKey, 0);
    assertTrue(lookup.mightContainRow(Bytes.toBytes("b"), written.loader()));
    assertTrue(lookup.mightContainRow(Bytes.toBytes("d"), written.loader()));
    assertEquals(2, written.loads.get());
    assertFalse(lookup.mightContainRow(Bytes.toBytes("a"), written.loader()));
    assertFalse(lookup.mightContainRow(Bytes.toBytes("e"), written.loader()));
    assertEquals(2, written.loads.get());
    assertThrows(
        IllegalStateException.class,
        () ->
            lookup.mightContainRowColumn(Bytes.toBytes("b"), Bytes.toBytes("q"), written.loader()));
  }

  @Test
  void rowPrefixLookupsUseThePrefix() throws IOException {
    Written written =
        write(
            BloomType.ROWPREFIX_FIXED_LENGTH,
            3,
            List.of(cell("abc1", "q", CellType.PUT), cell("abd2", "q", CellType.PUT)));
    GeneralBloomLookup lookup = new GeneralBloomLookup(written.reader, written.lastKey, 3);
    assertTrue(lookup.mightContainRow(Bytes.toBytes("abc9"), written.loader()));
    assertTrue(lookup.mightContainRow(Bytes.toBytes("abd"), written.loader()));
    assertFalse(lookup.mightContainRow(Bytes.toBytes("abe"), written.loader()));
    assertThrows(
        IllegalArgumentException.class, () -> new GeneralBloomLookup(written.reader, null, 0));
  }

  @Test
  void rowColumnLookupsAlsoFindTheRowsDeleteFamilyKey() throws IOException {
    Written written =
        write(
            BloomType.ROWCOL,
            0,
            List.of(
                cell("a", "x", CellType.PUT),
                cell("m", "", CellType.DELETE_FAMILY),
                cell("m", "y", CellType.PUT)));
    GeneralBloomLookup lookup = new GeneralBloomLookup(written.reader, written.lastKey, 0);
    assertTrue(
        lookup.mightContainRowColumn(Bytes.toBytes("a"), Bytes.toBytes("x"), written.loader()));
    // Column m:z was never written, but the row's DeleteFamily marker may hide older cells.
    assertTrue(
        lookup.mightContainRowColumn(Bytes.toBytes("m"), Bytes.toBytes("z"), written.loader()));
    // Past LAST_BLOOM_KEY for both the column and the row key: no load.
    int loads = written.loads.get();
    assertFalse(
        lookup.mightContainRowColumn(Bytes.toBytes("n"), Bytes.toBytes("a"), written.loader()));
    assertEquals(loads, written.loads.get());
    assertThrows(
        IllegalStateException.class,
        () -> lookup.mightContainRow(Bytes.toBytes("a"), written.loader()));
  }

  @Test
  void withoutALastBloomKeyEveryLookupGoesToTheBloom() throws IOException {
    Written written = write(BloomType.ROW, 0, List.of(cell("b", "q", CellType.PUT)));
    GeneralBloomLookup lookup = new GeneralBloomLookup(written.reader, null, 0);
    lookup.mightContainRow(Bytes.toBytes("z"), written.loader());
    assertEquals(1, written.loads.get());
  }
}
