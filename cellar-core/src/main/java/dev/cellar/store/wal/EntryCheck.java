package dev.cellar.store.wal;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Checks an append's arguments on the appender's thread and sizes its entry, so that the sync
 * thread, which serializes the entry later ({@link EntryEncoder}), never meets a cell it cannot
 * write: lengths consistent with each other and within the layout's limits, every part inside the
 * segment that holds it, the entry within {@value WalLayout#MAX_ENTRY_SIZE} bytes. Stateless and
 * thread-safe.
 */
final class EntryCheck {

  private EntryCheck() {}

  /**
   * Checks a table name given to the log and returns it in UTF-8.
   *
   * @throws IllegalArgumentException if it is null, empty or too long
   */
  static byte[] tableName(String table) {
    if (table == null) {
      throw new IllegalArgumentException("table is null");
    }
    byte[] bytes = table.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0 || bytes.length > WalLayout.MAX_TABLE_LENGTH) {
      throw new IllegalArgumentException(
          "table name must be 1 to "
              + WalLayout.MAX_TABLE_LENGTH
              + " UTF-8 bytes, found "
              + bytes.length);
    }
    return bytes;
  }

  /**
   * Checks {@code cells} and returns the payload length of their entry for a table whose name is
   * {@code tableName}.
   *
   * @throws IllegalArgumentException if the list is null or empty, a cell is null, its lengths are
   *     inconsistent or it names bytes outside its segments, or the entry would exceed {@value
   *     WalLayout#MAX_ENTRY_SIZE} bytes
   */
  static int payloadLength(byte[] tableName, String table, List<? extends Cell> cells) {
    if (cells == null || cells.isEmpty()) {
      throw new IllegalArgumentException(
          "an entry for table '"
              + table
              + "' needs at least one"
              + " cell, found "
              + (cells == null ? "null" : "an empty list"));
    }
    long payload = WalLayout.firstCellOffset(tableName.length) - WalLayout.PAYLOAD_LENGTH_SIZE;
    int index = 0;
    for (Cell cell : cells) {
      payload += WalLayout.CELL_LENGTH_SIZE + checkedLength(cell, index, table);
      if (payload > WalLayout.MAX_PAYLOAD_LENGTH) {
        throw new IllegalArgumentException(
            "the entry for table '"
                + table
                + "' exceeds "
                + WalLayout.MAX_ENTRY_SIZE
                + " bytes at cell "
                + index);
      }
      index++;
    }
    return (int) payload;
  }

  /** Returns the serialized length of a cell after checking its lengths and bounds. */
  private static int checkedLength(Cell cell, int index, String table) {
    if (cell == null) {
      throw badCell(index, table, "is null");
    }
    int keyLength = cell.keyLength();
    int valueLength = cell.valueLength();
    int rowLength = cell.rowLength();
    int familyLength = cell.familyLength();
    int tagsLength = cell.tagsLength();
    int length = cell.length();
    int maxNames = keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
    if (maxNames < 0) {
      throw badCell(
          index,
          table,
          "has key length "
              + keyLength
              + ", expected at least "
              + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE);
    }
    if (valueLength < 0) {
      throw badCell(index, table, "has a negative value length " + valueLength);
    }
    if (rowLength < 0 || rowLength > Math.min(maxNames, KeyValueLayout.MAX_ROW_LENGTH)) {
      throw badCell(
          index,
          table,
          "has row length "
              + rowLength
              + ", expected 0 to "
              + Math.min(maxNames, KeyValueLayout.MAX_ROW_LENGTH));
    }
    int maxFamily = Math.min(maxNames - rowLength, KeyValueLayout.MAX_FAMILY_LENGTH);
    if (familyLength < 0 || familyLength > maxFamily) {
      throw badCell(
          index, table, "has family length " + familyLength + ", expected 0 to " + maxFamily);
    }
    if (tagsLength < 0 || tagsLength > KeyValueLayout.MAX_TAGS_LENGTH) {
      throw badCell(
          index,
          table,
          "has tags length " + tagsLength + ", expected 0 to " + KeyValueLayout.MAX_TAGS_LENGTH);
    }
    long withoutTags = KeyValueLayout.cellLength(keyLength, valueLength, 0, false);
    long withTags = KeyValueLayout.cellLength(keyLength, valueLength, tagsLength, true);
    if (!(length == withTags || (length == withoutTags && tagsLength == 0))) {
      throw badCell(
          index,
          table,
          "has length "
              + length
              + ", expected "
              + withTags
              + (tagsLength == 0 ? " or " + withoutTags : "")
              + " for key length "
              + keyLength
              + ", value length "
              + valueLength
              + ", tags length "
              + tagsLength);
    }
    checkInside(cell.segment(), cell.keyOffset(), keyLength, "key", index, table);
    checkInside(cell.valueSegment(), cell.valueOffset(), valueLength, "value", index, table);
    if (length == withTags) {
      checkInside(cell.tagsSegment(), cell.tagsOffset(), tagsLength, "tags", index, table);
    }
    return length;
  }

  private static void checkInside(
      MemorySegment segment, long offset, int length, String part, int index, String table) {
    if (offset < 0 || offset > segment.byteSize() - length) {
      throw badCell(
          index,
          table,
          "names bytes outside its segment: its "
              + part
              + " of "
              + length
              + " bytes at offset "
              + offset
              + " in a segment of "
              + segment.byteSize()
              + " bytes");
    }
  }

  private static IllegalArgumentException badCell(int index, String table, String problem) {
    return new IllegalArgumentException(
        "cell " + index + " of the entry for table '" + table + "' " + problem);
  }
}
