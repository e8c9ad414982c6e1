package dev.cellar.hfile.bloom;

import dev.cellar.cell.Bytes;
import dev.cellar.schema.BloomType;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * The checks HBase's {@code StoreFileReader} makes with a file's general bloom filter, on top of
 * {@link CompoundBloomReader}: the {@code LAST_BLOOM_KEY} shortcut and, for ROWCOL, the second
 * probe for the row's DeleteFamily key. Thread-safe: immutable.
 *
 * <ul>
 *   <li>ROW and ROWPREFIX_FIXED_LENGTH ({@link #mightContainRow}): the key is the row or its
 *       prefix; a key sorting after {@code LAST_BLOOM_KEY} is absent, otherwise the bloom decides.
 *   <li>ROWCOL ({@link #mightContainRowColumn}): the keys are (row, qualifier) and (row, empty
 *       qualifier), the latter standing for DeleteFamily markers of the row. Absent if the column
 *       key sorts after {@code LAST_BLOOM_KEY} and so does the row key; otherwise present if the
 *       bloom may hold either.
 * </ul>
 *
 * <p>An empty file, and a bloom turned off after a {@link CorruptBloomException} or an {@link
 * IOException}, remain the caller's to handle, as does the delete-family bloom (a plain {@link
 * CompoundBloomReader#mightContain} on the row, without a last-key check).
 */
public final class GeneralBloomLookup {

  private final CompoundBloomReader reader;
  private final byte[] lastBloomKey;
  private final MemorySegment lastBloomKeySegment;
  private final int prefixLength;

  /**
   * @param reader the general bloom
   * @param lastBloomKey FileInfo's {@code LAST_BLOOM_KEY}, or {@code null} if the file has none
   * @param prefixLength FileInfo's {@code BLOOM_FILTER_PARAM} for ROWPREFIX_FIXED_LENGTH, ignored
   *     otherwise
   * @throws IllegalArgumentException if a ROWPREFIX_FIXED_LENGTH bloom has a prefix length below 1
   */
  public GeneralBloomLookup(CompoundBloomReader reader, byte[] lastBloomKey, int prefixLength) {
    if (reader.type() == BloomType.ROWPREFIX_FIXED_LENGTH && prefixLength < 1) {
      throw new IllegalArgumentException(
          "ROWPREFIX_FIXED_LENGTH bloom: expected a prefix length >= 1, found " + prefixLength);
    }
    this.reader = reader;
    this.lastBloomKeySegment = lastBloomKey == null ? null : MemorySegment.ofArray(lastBloomKey);
    this.lastBloomKey = lastBloomKey == null ? null : lastBloomKey.clone();
    this.prefixLength = prefixLength;
  }

  /** The bloom's type. */
  public BloomType type() {
    return reader.type();
  }

  /** The bytes of all the bloom's chunks (HBase's {@code getByteSize}). */
  public long byteSize() {
    return reader.byteSize();
  }

  /**
   * Whether a get of {@code row} might find cells in the file (ROW and ROWPREFIX_FIXED_LENGTH).
   *
   * @throws IllegalStateException for a ROWCOL bloom
   * @throws IOException if the chunk cannot be loaded
   */
  public boolean mightContainRow(byte[] row, ChunkLoader loader) throws IOException {
    byte[] key =
        switch (reader.type()) {
          case ROW -> row;
          case ROWPREFIX_FIXED_LENGTH -> BloomKeys.rowPrefix(row, prefixLength);
          case ROWCOL, NONE ->
              throw new IllegalStateException(
                  "a " + reader.type().name() + " bloom answers row-column lookups");
        };
    return !isAfterLast(key) && reader.mightContain(key, 0, key.length, loader);
  }

  /**
   * {@link #mightContainRow(byte[], ChunkLoader)} for a row held in a range of a segment, without
   * copying or wrapping it (a ROW bloom; a prefix bloom probes a copy of the prefix).
   */
  public boolean mightContainRow(MemorySegment row, long offset, int length, ChunkLoader loader)
      throws IOException {
    if (reader.type() != BloomType.ROW) {
      return mightContainRow(Bytes.copy(row, offset, length), loader);
    }
    return !(lastBloomKeySegment != null
            && reader.compareKeys(row, offset, length, lastBloomKeySegment) > 0)
        && reader.mightContain(row, offset, length, loader);
  }

  /**
   * Whether a get of one column might find cells in the file (ROWCOL).
   *
   * @throws IllegalStateException for any other bloom type
   * @throws IOException if a chunk cannot be loaded
   */
  public boolean mightContainRowColumn(byte[] row, byte[] qualifier, ChunkLoader loader)
      throws IOException {
    if (reader.type() != BloomType.ROWCOL) {
      throw new IllegalStateException("a " + reader.type().name() + " bloom answers row lookups");
    }
    byte[] columnKey = BloomKeys.rowCol(row, qualifier);
    byte[] rowKey = BloomKeys.rowCol(row, Bytes.EMPTY);
    if (isAfterLast(columnKey) && isAfterLast(rowKey)) {
      return false;
    }
    return reader.mightContain(columnKey, 0, columnKey.length, loader)
        || reader.mightContain(rowKey, 0, rowKey.length, loader);
  }

  private boolean isAfterLast(byte[] key) {
    return lastBloomKey != null && reader.compareKeys(key, lastBloomKey) > 0;
  }
}
