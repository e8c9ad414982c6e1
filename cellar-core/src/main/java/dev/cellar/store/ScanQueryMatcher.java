package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.Filter;

/**
 * Decides the fate of each cell a user scan meets in one family, in HBase's order (its
 * UserScanQueryMatcher): expiry by TTL (when no minimum versions protect the column), delete
 * markers (tracked, never returned), time range, wanted columns, puts masked by a marker, the
 * filter, and last the version count, so that a put skipped for any earlier reason does not use
 * up a version. Not thread-safe; one per store scanner.
 */
final class ScanQueryMatcher {

  private final ScanSpec spec;
  private final Filter filter;
  private final long oldestUnexpired;
  private final DeleteTracker deletes = new DeleteTracker();
  private final ColumnTracker columns;
  private Cell seekHint;

  ScanQueryMatcher(ScanSpec spec) {
    this.spec = spec;
    this.filter = spec.filter();
    this.oldestUnexpired = spec.oldestUnexpiredTimestamp();
    this.columns = new ColumnTracker(spec);
  }

  /** Forgets the previous row's markers and versions. */
  void startRow() {
    deletes.reset();
    columns.reset();
  }

  /** Where to seek after {@link MatchCode#SEEK_NEXT_USING_HINT}. */
  Cell seekHint() {
    return seekHint;
  }

  MatchCode match(Cell cell) {
    long timestamp = cell.timestamp();
    if (spec.minVersions() == 0 && timestamp < oldestUnexpired) {
      return MatchCode.SEEK_NEXT_COL;
    }
    CellType type = cell.type();
    if (type != CellType.PUT) {
      if (type != CellType.MINIMUM && type != CellType.MAXIMUM) {
        deletes.add(cell, type);
      }
      return MatchCode.SKIP;
    }
    if (timestamp >= spec.maxTimestamp()) {
      return MatchCode.SKIP;
    }
    if (timestamp < spec.minTimestamp()) {
      return MatchCode.SEEK_NEXT_COL;
    }
    MatchCode column = columns.checkColumn(cell);
    if (column != MatchCode.INCLUDE) {
      if (column == MatchCode.SEEK_NEXT_USING_HINT) {
        seekHint = KeyValue.firstOnColumn(cell.rowArray(), cell.familyArray(),
            columns.seekHintQualifier());
      }
      return column;
    }
    switch (deletes.isDeleted(cell)) {
      case FAMILY_DELETED, COLUMN_DELETED -> {
        return MatchCode.SEEK_NEXT_COL;
      }
      case FAMILY_VERSION_DELETED, VERSION_DELETED -> {
        return MatchCode.SKIP;
      }
      case NOT_DELETED -> { }
    }
    Filter.ReturnCode filtered = filter == null ? Filter.ReturnCode.INCLUDE
        : filter.filterCell(cell);
    switch (filtered) {
      case SKIP -> {
        return MatchCode.SKIP;
      }
      case NEXT_COL -> {
        return MatchCode.SEEK_NEXT_COL;
      }
      case NEXT_ROW -> {
        return MatchCode.SEEK_NEXT_ROW;
      }
      case SEEK_NEXT_USING_HINT -> {
        seekHint = filter.nextCellHint(cell);
        return MatchCode.SEEK_NEXT_USING_HINT;
      }
      default -> { }
    }
    MatchCode versions = columns.checkVersions(cell);
    if (versions != MatchCode.INCLUDE && versions != MatchCode.INCLUDE_AND_SEEK_NEXT_COL) {
      return versions;
    }
    return switch (filtered) {
      case INCLUDE_AND_SEEK_NEXT_ROW -> MatchCode.INCLUDE_AND_SEEK_NEXT_ROW;
      case INCLUDE_AND_NEXT_COL -> MatchCode.INCLUDE_AND_SEEK_NEXT_COL;
      default -> versions;
    };
  }
}
