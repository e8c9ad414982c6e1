package dev.cellar;

/**
 * A column family's bloom filter ({@code BLOOMFILTER}), under HBase's names: which keys a file's
 * bloom filter holds, so that a Get can skip files that cannot have its row.
 */
public enum BloomType {
  /** No bloom filter. */
  NONE,
  /** One key per row. */
  ROW,
  /** One key per row and column. */
  ROWCOL,
  /** One key per row prefix of a fixed length; the descriptor also accepts {@code ROWPREFIX}. */
  ROWPREFIX_FIXED_LENGTH
}
