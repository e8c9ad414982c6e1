package dev.cellar.store.wal;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What the log knows of one segment file: its path and first sequence id, the highest sequence id
 * of each table with entries in it, and how many of its bytes can be read back (all of a closed
 * segment, the forced prefix of the one being written). Not thread-safe: the {@link SegmentCatalog}
 * that holds it guards every access.
 */
final class Segment {

  private final Path path;
  private final long firstSequenceId;
  private final Map<String, Long> highestIdByTable = new HashMap<>();
  private long readableLength;

  Segment(Path path, long firstSequenceId, long readableLength) {
    this.path = path;
    this.firstSequenceId = firstSequenceId;
    this.readableLength = readableLength;
  }

  Path path() {
    return path;
  }

  long firstSequenceId() {
    return firstSequenceId;
  }

  long readableLength() {
    return readableLength;
  }

  void readableLength(long length) {
    readableLength = length;
  }

  /** Records an entry of {@code table} with id {@code sequenceId}. */
  void recordEntry(String table, long sequenceId) {
    highestIdByTable.merge(table, sequenceId, Math::max);
  }

  boolean hasEntries() {
    return !highestIdByTable.isEmpty();
  }

  /** The highest sequence id of any entry, or the first sequence id minus one without entries. */
  long highestSequenceId() {
    long highest = firstSequenceId - 1;
    for (long id : highestIdByTable.values()) {
      highest = Math.max(highest, id);
    }
    return highest;
  }

  /**
   * Whether every entry is flushed: for each table with entries here, {@code flushed} holds an id
   * at least as high as that table's highest id here.
   */
  boolean isFlushed(Map<String, Long> flushed) {
    for (Map.Entry<String, Long> table : highestIdByTable.entrySet()) {
      if (flushed.getOrDefault(table.getKey(), -1L) < table.getValue()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "Segment[" + path.getFileName() + ", tables " + highestIdByTable + "]";
  }
}
