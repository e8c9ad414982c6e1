package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.search.SearchKey;
import dev.cellar.filter.Filter;

/**
 * Decides the fate of each cell a user scan meets in one family, in HBase 2's order (its
 * UserScanQueryMatcher): expiry by TTL (when no minimum versions protect the column), delete
 * markers (tracked, never returned), time range, wanted columns, puts masked by a marker, the
 * version count, and last the filter. The filter therefore sees exactly the cells the scan would
 * return without it: a shadowed put (same timestamp, older write), a version beyond the maximum or
 * an expired one beyond the minimum never reaches it, and a version the filter drops still counts
 * (HBase counts versions up to the family's VERSIONS before the filter and the scan's maximum after
 * it; here {@link ScanSpec#maxVersions()} is both). The filter's answer is merged with the version
 * count's as HBase merges them: the farther skip wins. Not thread-safe; one per store scanner.
 */
final class ScanQueryMatcher {

  private static final byte PUT_CODE = CellType.PUT.code();

  private ScanSpec spec;
  private Filter filter;
  private long oldestUnexpired;
  private final DeleteTracker deletes = new DeleteTracker();
  private final ColumnTracker columns;

  /** Where column seek hints are built, each valid until the next one. */
  private final SearchKey hintKey;

  private Cell seekHint;

  /**
   * A matcher for {@code spec} (a point read {@link #configure}s it again for each read), building
   * its column seek hints in {@code hintKey}, so that matching allocates nothing.
   */
  ScanQueryMatcher(ScanSpec spec, SearchKey hintKey) {
    this.spec = spec;
    this.filter = spec.filter();
    this.oldestUnexpired = spec.oldestUnexpiredTimestamp();
    this.columns = new ColumnTracker(spec);
    this.hintKey = hintKey;
  }

  /** Matches for {@code newSpec} from now on, expiring by the TTL at {@code nowMillis}. */
  void configure(ScanSpec newSpec, long nowMillis) {
    spec = newSpec;
    filter = newSpec.filter();
    oldestUnexpired = newSpec.oldestUnexpiredTimestamp(nowMillis);
    columns.configure(newSpec, oldestUnexpired);
    deletes.reset();
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
    if (cell.typeByte() != PUT_CODE) {
      CellType type = cell.type();
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
        seekHint =
            hintKey.firstOnColumn(
                cell,
                columns.seekHintQualifierSegment(),
                (int) columns.seekHintQualifierSegment().byteSize());
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
      case NOT_DELETED -> {}
    }
    MatchCode versions = columns.checkVersions(cell);
    if (filter == null
        || (versions != MatchCode.INCLUDE
            && versions != MatchCode.INCLUDE_AND_SEEK_NEXT_COL
            && versions != MatchCode.INCLUDE_AND_SEEK_NEXT_ROW)) {
      return versions;
    }
    return merge(versions, filter.filterCell(cell), cell);
  }

  /** Combines an including version count with the filter's answer for the same cell. */
  private MatchCode merge(MatchCode versions, Filter.ReturnCode filtered, Cell cell) {
    boolean lastOfRow = versions == MatchCode.INCLUDE_AND_SEEK_NEXT_ROW;
    boolean lastVersion = lastOfRow || versions == MatchCode.INCLUDE_AND_SEEK_NEXT_COL;
    return switch (filtered) {
      case INCLUDE -> versions;
      case INCLUDE_AND_NEXT_COL -> lastOfRow ? versions : MatchCode.INCLUDE_AND_SEEK_NEXT_COL;
      case INCLUDE_AND_SEEK_NEXT_ROW -> MatchCode.INCLUDE_AND_SEEK_NEXT_ROW;
      case SKIP ->
          lastOfRow
              ? MatchCode.SEEK_NEXT_ROW
              : lastVersion ? MatchCode.SEEK_NEXT_COL : MatchCode.SKIP;
      case NEXT_COL -> lastOfRow ? MatchCode.SEEK_NEXT_ROW : MatchCode.SEEK_NEXT_COL;
      case NEXT_ROW -> MatchCode.SEEK_NEXT_ROW;
      case SEEK_NEXT_USING_HINT -> {
        seekHint = filter.nextCellHint(cell);
        yield MatchCode.SEEK_NEXT_USING_HINT;
      }
    };
  }
}
