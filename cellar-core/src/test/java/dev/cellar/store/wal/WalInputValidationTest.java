package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Bad arguments fail with a clear {@link IllegalArgumentException} and consume no sequence id. */
class WalInputValidationTest {

  @TempDir Path directory;

  private static final KeyValue CELL =
      KeyValue.create(
          Bytes.toBytes("row"),
          Bytes.toBytes("f"),
          Bytes.toBytes("q"),
          7,
          CellType.PUT,
          Bytes.toBytes("value"));

  /** A cell that reports {@link #CELL}'s bytes with the lengths given. */
  private record LyingCell(
      int keyLength, int valueLength, int rowLength, int familyLength, int tagsLength, int length)
      implements Cell {

    @Override
    public MemorySegment segment() {
      return CELL.segment();
    }

    @Override
    public long offset() {
      return 0;
    }

    @Override
    public long sequenceId() {
      return 0;
    }
  }

  private static LyingCell lying(
      int keyLength, int valueLength, int rowLength, int familyLength, int tagsLength, int length) {
    return new LyingCell(keyLength, valueLength, rowLength, familyLength, tagsLength, length);
  }

  private static void assertRejected(Executable append, String expectedMessagePart) {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, append);
    assertTrue(
        error.getMessage().contains(expectedMessagePart),
        "'" + error.getMessage() + "' should mention '" + expectedMessagePart + "'");
  }

  @Test
  void badArgumentsAreRejectedBeforeAnIdIsAssigned() throws Exception {
    int k = CELL.keyLength();
    int v = CELL.valueLength();
    try (WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults())) {
      for (Durability durability : Durability.values()) {
        assertRejected(() -> wal.append(null, List.of(CELL), durability), "table is null");
        assertRejected(() -> wal.append("", List.of(CELL), durability), "table name");
        assertRejected(
            () -> wal.append("x".repeat(70_000), List.of(CELL), durability), "found 70000");
        assertRejected(() -> wal.append("t", null, durability), "at least one cell");
        assertRejected(() -> wal.append("t", List.of(), durability), "at least one cell");
        assertRejected(
            () -> wal.append("t", Arrays.asList(CELL, null), durability),
            "cell 1 of the entry for table 't' is null");
        assertRejected(
            () -> wal.append("t", List.of(lying(k, -1, 3, 1, 0, CELL.length())), durability),
            "negative value length -1");
        assertRejected(
            () -> wal.append("t", List.of(lying(-5, v, 3, 1, 0, CELL.length())), durability),
            "key length -5");
        assertRejected(
            () -> wal.append("t", List.of(lying(k, v, -3, 1, 0, CELL.length())), durability),
            "row length -3");
        assertRejected(
            () -> wal.append("t", List.of(lying(k, v, 3, -1, 0, CELL.length())), durability),
            "family length -1");
        assertRejected(
            () -> wal.append("t", List.of(lying(k, v, 3, 1, -2, CELL.length())), durability),
            "tags length -2");
        assertRejected(
            () -> wal.append("t", List.of(lying(k, v, 3, 1, 0, -8)), durability), "has length -8");
        if (durability.writes()) {
          assertRejected(
              () ->
                  wal.append(
                      "t", List.of(lying(k + 100, v, 3, 1, 0, CELL.length() + 100)), durability),
              "outside its segment");
        }
      }
      assertRejected(() -> wal.append("t", List.of(CELL), null), "durability is null");
      assertRejected(() -> wal.replay(0, null), "consumer is null");
      assertEquals(1, wal.append("t", List.of(CELL)), "no id was spent on rejected appends");
    }
  }

  @Test
  void appendsAfterCloseFail() throws Exception {
    WriteAheadLog wal = WriteAheadLog.open(directory, WalConfig.defaults());
    wal.close();
    wal.close();
    assertThrows(IllegalStateException.class, () -> wal.append("t", List.of(CELL)));
    assertThrows(IllegalStateException.class, wal::roll);
  }
}
