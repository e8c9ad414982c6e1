package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import java.util.HashSet;
import java.util.Set;

/**
 * The delete markers seen so far in one row of one family, as HBase's ScanDeleteTracker: a delete
 * marker masks puts regardless of which was written first (until a major compaction drops both).
 *
 * <ul>
 *   <li>DELETE_FAMILY at t masks every put of the family with timestamp ≤ t;
 *   <li>DELETE_FAMILY_VERSION at t masks every put of the family with timestamp exactly t;
 *   <li>DELETE_COLUMN at t masks the column's puts with timestamp ≤ t;
 *   <li>DELETE at t masks the column's puts with timestamp exactly t.
 * </ul>
 *
 * Markers sort before the puts they can mask (family markers carry the empty qualifier, which sorts
 * first; within a column, newer timestamps and then delete types come first), so one pass sees
 * every marker before the puts it covers. Column state is kept for the current column only. Not
 * thread-safe.
 */
final class DeleteTracker {

  /** What masked a put, if anything. */
  enum Result {
    NOT_DELETED,
    FAMILY_DELETED,
    FAMILY_VERSION_DELETED,
    COLUMN_DELETED,
    VERSION_DELETED
  }

  private long familyDeleteTimestamp = Long.MIN_VALUE;
  private final Set<Long> familyVersionDeletes = new HashSet<>();
  private final CopiedBytes column = new CopiedBytes();
  private long columnDeleteTimestamp = Long.MIN_VALUE;
  private final Set<Long> versionDeletes = new HashSet<>();

  /** Forgets everything (a new row). */
  void reset() {
    familyDeleteTimestamp = Long.MIN_VALUE;
    if (!familyVersionDeletes.isEmpty()) {
      familyVersionDeletes.clear();
    }
    clearColumn();
  }

  private void clearColumn() {
    column.clear();
    columnDeleteTimestamp = Long.MIN_VALUE;
    if (!versionDeletes.isEmpty()) {
      versionDeletes.clear();
    }
  }

  /** Records a delete marker. */
  void add(Cell marker, CellType type) {
    long timestamp = marker.timestamp();
    switch (type) {
      case DELETE_FAMILY -> familyDeleteTimestamp = Math.max(familyDeleteTimestamp, timestamp);
      case DELETE_FAMILY_VERSION -> familyVersionDeletes.add(timestamp);
      case DELETE_COLUMN, DELETE -> {
        if (!column.matchesQualifier(marker)) {
          clearColumn();
          column.setQualifier(marker);
        }
        if (type == CellType.DELETE_COLUMN) {
          columnDeleteTimestamp = Math.max(columnDeleteTimestamp, timestamp);
        } else {
          versionDeletes.add(timestamp);
        }
      }
      default -> throw new IllegalArgumentException("not a delete marker: " + type);
    }
  }

  /** Whether a marker seen so far masks {@code put}. */
  Result isDeleted(Cell put) {
    long timestamp = put.timestamp();
    if (timestamp <= familyDeleteTimestamp) {
      return Result.FAMILY_DELETED;
    }
    if (!familyVersionDeletes.isEmpty() && familyVersionDeletes.contains(timestamp)) {
      return Result.FAMILY_VERSION_DELETED;
    }
    if (column.isSet()) {
      if (!column.matchesQualifier(put)) {
        clearColumn();
      } else if (timestamp <= columnDeleteTimestamp) {
        return Result.COLUMN_DELETED;
      } else if (versionDeletes.contains(timestamp)) {
        return Result.VERSION_DELETED;
      }
    }
    return Result.NOT_DELETED;
  }
}
