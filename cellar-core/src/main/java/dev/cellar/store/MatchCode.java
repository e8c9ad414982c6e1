package dev.cellar.store;

/** What a store scanner does with the cell under its cursor, as HBase's ScanQueryMatcher says. */
enum MatchCode {
  /** Return the cell and move to the next. */
  INCLUDE,
  /** Return the cell and skip the column's other versions. */
  INCLUDE_AND_SEEK_NEXT_COL,
  /** Return the cell and skip the rest of the row. */
  INCLUDE_AND_SEEK_NEXT_ROW,
  /** Move to the next cell. */
  SKIP,
  /** Skip the column's other versions. */
  SEEK_NEXT_COL,
  /** Skip the rest of the row. */
  SEEK_NEXT_ROW,
  /** Jump to the matcher's seek hint. */
  SEEK_NEXT_USING_HINT
}
