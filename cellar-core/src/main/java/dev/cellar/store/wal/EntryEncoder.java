package dev.cellar.store.wal;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueLayout;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Checks an append's arguments and serializes its table name and cells into a new heap array laid
 * out as one entry ({@link SegmentWriter} documents the layout), leaving the sequence id and the
 * CRC32C for {@link SegmentWriter#seal} to fill in once the id is known. Stateless and thread-safe:
 * appenders encode concurrently, outside the log's lock.
 *
 * <p>Each cell is copied part by part (lengths, key, value, tags section) from the segments it
 * names, so a cell whose value or tags live apart from its key serializes as the same contiguous
 * KeyValue bytes as any other.
 */
final class EntryEncoder {

  private EntryEncoder() {}

  /**
   * Returns the entry for {@code cells} of {@code table}, sequence id and CRC still zero.
   *
   * @throws IllegalArgumentException if the table is null, empty or longer than {@value
   *     WalLayout#MAX_TABLE_LENGTH} UTF-8 bytes, the list is null or empty, a cell is null or its
   *     lengths are inconsistent, or the entry would exceed {@value WalLayout#MAX_ENTRY_SIZE} bytes
   */
  static byte[] encode(String table, List<? extends Cell> cells) {
    byte[] tableName = tableName(table);
    int payloadLength = payloadLength(tableName, table, cells);
    byte[] entry = new byte[(int) WalLayout.entrySize(payloadLength)];
    MemorySegment out = MemorySegment.ofArray(entry);
    out.set(WalLayout.INT, WalLayout.PAYLOAD_LENGTH_OFFSET, payloadLength);
    out.set(WalLayout.SHORT, WalLayout.TABLE_LENGTH_OFFSET, (short) tableName.length);
    MemorySegment.copy(tableName, 0, out, KeyValueLayout.BYTE, WalLayout.TABLE_OFFSET,
        tableName.length);
    out.set(WalLayout.INT, WalLayout.cellCountOffset(tableName.length), cells.size());
    long position = WalLayout.firstCellOffset(tableName.length);
    int index = 0;
    for (Cell cell : cells) {
      position = writeCell(out, position, cell, index++, table);
    }
    return entry;
  }

  /**
   * Checks what {@link #encode} checks, without encoding: for appends that write nothing.
   *
   * @throws IllegalArgumentException as {@link #encode} does
   */
  static void validate(String table, List<? extends Cell> cells) {
    payloadLength(tableName(table), table, cells);
  }

  /**
   * Checks a table name given to the log.
   *
   * @throws IllegalArgumentException if it is null, empty or too long
   */
  static byte[] tableName(String table) {
    if (table == null) {
      throw new IllegalArgumentException("table is null");
    }
    byte[] bytes = table.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0 || bytes.length > WalLayout.MAX_TABLE_LENGTH) {
      throw new IllegalArgumentException("table name must be 1 to " + WalLayout.MAX_TABLE_LENGTH
          + " UTF-8 bytes, found " + bytes.length);
    }
    return bytes;
  }

  private static int payloadLength(byte[] tableName, String table, List<? extends Cell> cells) {
    if (cells == null || cells.isEmpty()) {
      throw new IllegalArgumentException("an entry for table '" + table + "' needs at least one"
          + " cell, found " + (cells == null ? "null" : "an empty list"));
    }
    long payload = WalLayout.firstCellOffset(tableName.length) - WalLayout.PAYLOAD_LENGTH_SIZE;
    int index = 0;
    for (Cell cell : cells) {
      payload += WalLayout.CELL_LENGTH_SIZE + checkedLength(cell, index, table);
      if (payload > WalLayout.MAX_PAYLOAD_LENGTH) {
        throw new IllegalArgumentException("the entry for table '" + table + "' exceeds "
            + WalLayout.MAX_ENTRY_SIZE + " bytes at cell " + index);
      }
      index++;
    }
    return (int) payload;
  }

  /** Returns the serialized length of a cell after checking its lengths against each other. */
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
      throw badCell(index, table, "has key length " + keyLength + ", expected at least "
          + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE);
    }
    if (valueLength < 0) {
      throw badCell(index, table, "has a negative value length " + valueLength);
    }
    if (rowLength < 0 || rowLength > Math.min(maxNames, KeyValueLayout.MAX_ROW_LENGTH)) {
      throw badCell(index, table, "has row length " + rowLength + ", expected 0 to "
          + Math.min(maxNames, KeyValueLayout.MAX_ROW_LENGTH));
    }
    int maxFamily = Math.min(maxNames - rowLength, KeyValueLayout.MAX_FAMILY_LENGTH);
    if (familyLength < 0 || familyLength > maxFamily) {
      throw badCell(index, table, "has family length " + familyLength + ", expected 0 to "
          + maxFamily);
    }
    if (tagsLength < 0 || tagsLength > KeyValueLayout.MAX_TAGS_LENGTH) {
      throw badCell(index, table, "has tags length " + tagsLength + ", expected 0 to "
          + KeyValueLayout.MAX_TAGS_LENGTH);
    }
    long withoutTags = KeyValueLayout.cellLength(keyLength, valueLength, 0, false);
    long withTags = KeyValueLayout.cellLength(keyLength, valueLength, tagsLength, true);
    if (!(length == withTags || (length == withoutTags && tagsLength == 0))) {
      throw badCell(index, table, "has length " + length + ", expected " + withTags
          + (tagsLength == 0 ? " or " + withoutTags : "") + " for key length " + keyLength
          + ", value length " + valueLength + ", tags length " + tagsLength);
    }
    return length;
  }

  /** Writes one cell's length field and KeyValue bytes at {@code position}; returns its end. */
  private static long writeCell(MemorySegment out, long position, Cell cell, int index,
      String table) {
    int length = cell.length();
    int keyLength = cell.keyLength();
    int valueLength = cell.valueLength();
    long start = position + WalLayout.CELL_LENGTH_SIZE;
    out.set(WalLayout.INT, position, length);
    out.set(KeyValueLayout.INT, start + KeyValueLayout.KEY_LENGTH_OFFSET, keyLength);
    out.set(KeyValueLayout.INT, start + KeyValueLayout.VALUE_LENGTH_OFFSET, valueLength);
    try {
      MemorySegment.copy(cell.segment(), cell.keyOffset(), out, KeyValueLayout.keyOffset(start),
          keyLength);
      MemorySegment.copy(cell.valueSegment(), cell.valueOffset(), out,
          KeyValueLayout.valueOffset(start, keyLength), valueLength);
      long tagsLengthOffset = KeyValueLayout.tagsLengthOffset(start, keyLength, valueLength);
      if (start + length > tagsLengthOffset) {
        out.set(KeyValueLayout.SHORT, tagsLengthOffset, (short) cell.tagsLength());
        MemorySegment.copy(cell.tagsSegment(), cell.tagsOffset(), out,
            tagsLengthOffset + KeyValueLayout.TAGS_LENGTH_SIZE, cell.tagsLength());
      }
    } catch (IndexOutOfBoundsException e) {
      throw badCell(index, table, "names bytes outside its segment: " + e.getMessage());
    }
    return start + length;
  }

  private static IllegalArgumentException badCell(int index, String table, String problem) {
    return new IllegalArgumentException(
        "cell " + index + " of the entry for table '" + table + "' " + problem);
  }
}
