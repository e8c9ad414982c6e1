package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
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

  /** A value unlike its neighbours', as real values are (FAST_DIFF stores a repeated one in a flag). */
  private static byte[] value(int size, int cell) {
    byte[] value = new byte[size];
    Arrays.fill(value, (byte) cell);
    value[0] = (byte) (cell >>> 8);
    return value;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  @ParameterizedTest(name = "{0}: {1} cells of {2} bytes per row")
  @CsvSource({"NONE, 10, 100", "NONE, 1, 1000", "NONE, 1, 100", "NONE, 40, 100",
      "FAST_DIFF, 10, 100", "FAST_DIFF, 1, 1000", "FAST_DIFF, 1, 100", "FAST_DIFF, 40, 100",
      "DIFF, 10, 100", "PREFIX, 1, 1000"})
  void aSeekToARowsFirstKeyLandsOnItsFirstCellByTheIndex(DataBlockEncoding encoding, int columns,
      int valueSize) {
    EncodingContext context = new EncodingContext(false, true, false);
    BlockEncoder encoder = encoding.newEncoder(context);
    List<byte[]> rows = new ArrayList<>();
    for (int r = 0; encoder.unencodedSize() < 65_536; r++) {
      byte[] row = bytes(String.format("%023d", 1_000_000 + r));
      rows.add(row);
      for (int c = 0; c < columns; c++) {
        encoder.append(KeyValue.create(row, bytes("f"), bytes("field" + c), 1_000L,
            CellType.PUT, value(valueSize, r * columns + c)));
      }
    }
    byte[] payload = encoder.finishBlock();
    BlockSeeker seeker = encoding.newSeeker(context);
    Buf buf = Buf.wrap(payload);
    seeker.setBlock(buf);
    assertFalse(seeker.seekToRowStart(KeyValue.firstOnRow(rows.get(5))), "no index yet");
    assertTrue(seeker.indexBlock() != null);
    int found = 0;
    for (int r = 0; r < rows.size(); r++) {
      KeyValue key = KeyValue.firstOnRow(rows.get(r));
      if (seeker.seekToRowStart(key)) {
        found++;
        assertArrayEquals(rows.get(r), seeker.current().rowArray(), "row " + r);
        assertArrayEquals(bytes("field0"), seeker.current().qualifierArray(), "row " + r);
        for (int c = 1; c < columns; c++) {
          assertTrue(seeker.next(), "row " + r + " cell " + c);
          assertArrayEquals(rows.get(r), seeker.current().rowArray(), "row " + r);
          assertArrayEquals(bytes("field" + c), seeker.current().qualifierArray(), "row " + r);
        }
      }
    }
    assertFalse(seeker.seekToRowStart(KeyValue.firstOnRow(bytes("0"))), "before the block");
    assertFalse(seeker.seekToRowStart(KeyValue.firstOnRow(bytes("9"))), "after the block");
    int rowBytes = columns * (valueSize + 60);
    if (encoding != DataBlockEncoding.NONE) {
      // a checkpoint takes 8 times its bytes (about 70) at a row start: every row of 1 KB or more
      assertTrue(columns * valueSize < 1000 || found == rows.size() - 1,
          found + " of " + rows.size());
      assertTrue(found >= rows.size() / 8, found + " of " + rows.size());
    } else if (rowBytes >= CellOffsets.MIN_GAP) {
      // every row's start but the block's first cell's is an entry
      assertEquals(rows.size() - 1, found);
    } else {
      assertTrue(found >= rows.size() * rowBytes / (CellOffsets.MIN_GAP + rowBytes) - 1,
          found + " of " + rows.size());
    }
  }
}
