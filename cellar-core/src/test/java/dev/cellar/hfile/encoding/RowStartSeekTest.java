package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.schema.DataBlockEncoding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A block's seek index marks rows' first cells, and a seek to a row's first key lands on its first
 * cell through the index: for every row of a block of rows of several cells (YCSB's shape), of one
 * cell (PE's), and of rows longer than the index's wait for a row start; NONE blocks (cell offsets)
 * and delta-encoded ones (checkpoints, from which the cells decode as they would from the block's
 * start).
 */
class RowStartSeekTest {

  /**
   * A value unlike its neighbours', as real values are (FAST_DIFF stores a repeated one in a flag).
   */
  private static byte[] value(int size, int cell) {
    byte[] value = new byte[size];
    Arrays.fill(value, (byte) cell);
    value[0] = (byte) (cell >>> 8);
    return value;
  }

  /**
   * A seeker handed a block with its index, which may leave the block's start unread, still decodes
   * what it needs from there: the next row, of another length than the row it landed on, takes its
   * family from the block's first key (DIFF, FAST_DIFF).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"FAST_DIFF", "DIFF", "PREFIX"})
  void aSeekerSetWithTheIndexDecodesRowsOfAnotherLength(DataBlockEncoding encoding) {
    EncodingContext context = new EncodingContext(false, true, false);
    BlockEncoder encoder = Encodings.newEncoder(encoding, context);
    List<byte[]> rows = new ArrayList<>();
    for (int r = 0; encoder.unencodedSize() < 65_536; r++) {
      byte[] row = bytes(String.format("%06d", r) + "x".repeat(r % 4));
      rows.add(row);
      for (int c = 0; c < 2; c++) {
        encoder.append(
            KeyValue.create(
                row,
                bytes("fam"),
                bytes("field" + c),
                1_000L,
                CellType.PUT,
                value(1000, 2 * r + c)));
      }
    }
    byte[] payload = encoder.finishBlock();
    Buf buf = Buf.wrap(payload);
    BlockSeeker indexer = Encodings.newSeeker(encoding, context);
    indexer.setBlock(buf);
    SeekIndex index = indexer.indexBlock();
    int landed = 0;
    for (int r = 0; r + 1 < rows.size(); r++) {
      BlockSeeker seeker = Encodings.newSeeker(encoding, context);
      seeker.setIndexedBlock(buf.segment(), payload.length, index);
      if (seeker.seekToRowStart(KeyValue.firstOnRow(rows.get(r)))) {
        landed++;
        assertRowFromItsStart(seeker, rows.get(r), 2, "row " + r);
        assertTrue(seeker.next(), "row " + (r + 1));
        assertArrayEquals(rows.get(r + 1), seeker.current().rowArray(), "row " + (r + 1));
        assertArrayEquals(bytes("fam"), seeker.current().familyArray(), "row " + (r + 1));
        assertArrayEquals(bytes("field0"), seeker.current().qualifierArray(), "row " + (r + 1));
      }
    }
    assertEquals(rows.size() - 2, landed);
  }

  /** The seeker is on {@code row}'s first cell, and its next cells are the row's others. */
  private static void assertRowFromItsStart(
      BlockSeeker seeker, byte[] row, int columns, String message) {
    assertArrayEquals(row, seeker.current().rowArray(), message);
    assertArrayEquals(bytes("field0"), seeker.current().qualifierArray(), message);
    for (int c = 1; c < columns; c++) {
      assertTrue(seeker.next(), message + " cell " + c);
      assertArrayEquals(row, seeker.current().rowArray(), message);
      assertArrayEquals(bytes("field" + c), seeker.current().qualifierArray(), message);
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  @ParameterizedTest(name = "{0}: {1} cells of {2} bytes per row")
  @CsvSource({
    "NONE, 10, 100",
    "NONE, 1, 1000",
    "NONE, 1, 100",
    "NONE, 40, 100",
    "FAST_DIFF, 10, 100",
    "FAST_DIFF, 1, 1000",
    "FAST_DIFF, 1, 100",
    "FAST_DIFF, 40, 100",
    "DIFF, 10, 100",
    "PREFIX, 1, 1000"
  })
  void aSeekToARowsFirstKeyLandsOnItsFirstCellByTheIndex(
      DataBlockEncoding encoding, int columns, int valueSize) {
    EncodingContext context = new EncodingContext(false, true, false);
    BlockEncoder encoder = Encodings.newEncoder(encoding, context);
    List<byte[]> rows = new ArrayList<>();
    for (int r = 0; encoder.unencodedSize() < 65_536; r++) {
      byte[] row = bytes(String.format("%023d", 1_000_000 + r));
      rows.add(row);
      for (int c = 0; c < columns; c++) {
        encoder.append(
            KeyValue.create(
                row,
                bytes("f"),
                bytes("field" + c),
                1_000L,
                CellType.PUT,
                value(valueSize, r * columns + c)));
      }
    }
    byte[] payload = encoder.finishBlock();
    BlockSeeker seeker = Encodings.newSeeker(encoding, context);
    Buf buf = Buf.wrap(payload);
    seeker.setBlock(buf);
    assertFalse(seeker.seekToRowStart(KeyValue.firstOnRow(rows.get(5))), "no index yet");
    SeekIndex index = seeker.indexBlock();
    assertTrue(index != null);
    BlockSeeker setIndexed = Encodings.newSeeker(encoding, context);
    int found = 0;
    for (int r = 0; r < rows.size(); r++) {
      KeyValue key = KeyValue.firstOnRow(rows.get(r));
      boolean landed = seeker.seekToRowStart(key);
      if (landed) {
        found++;
        assertRowFromItsStart(seeker, rows.get(r), columns, "row " + r);
      }
      // a seeker handed the block with its index may not have read the block's start
      setIndexed.setIndexedBlock(buf.segment(), payload.length, index);
      assertEquals(landed, setIndexed.seekToRowStart(key), "row " + r + ", set indexed");
      if (landed) {
        assertRowFromItsStart(setIndexed, rows.get(r), columns, "row " + r + ", set indexed");
      } else {
        assertArrayEquals(rows.get(0), setIndexed.current().rowArray(), "row " + r);
      }
    }
    assertFalse(seeker.seekToRowStart(KeyValue.firstOnRow(bytes("0"))), "before the block");
    assertFalse(seeker.seekToRowStart(KeyValue.firstOnRow(bytes("9"))), "after the block");
    int rowBytes = columns * (valueSize + 60);
    if (encoding != DataBlockEncoding.NONE) {
      // a checkpoint takes 8 times its bytes (about 70) at a row start: every row of 1 KB or more
      assertTrue(
          columns * valueSize < 1000 || found == rows.size() - 1, found + " of " + rows.size());
      assertTrue(found >= rows.size() / 8, found + " of " + rows.size());
    } else if (rowBytes >= CellOffsets.MIN_GAP) {
      // every row's start but the block's first cell's is an entry
      assertEquals(rows.size() - 1, found);
    } else {
      assertTrue(
          found >= rows.size() * rowBytes / (CellOffsets.MIN_GAP + rowBytes) - 1,
          found + " of " + rows.size());
    }
  }
}
