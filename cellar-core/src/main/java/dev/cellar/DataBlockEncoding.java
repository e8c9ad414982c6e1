package dev.cellar;

/**
 * How a column family lays out the cells of a data block ({@code DATA_BLOCK_ENCODING}), under
 * HBase's names; every encoding reads and writes files HBase reads and writes.
 */
public enum DataBlockEncoding {
  /** Cells in the plain KeyValue layout. */
  NONE,
  /** Each key stored as its difference from the previous key. */
  PREFIX,
  /** Key deltas with the family written once and timestamps as differences. */
  DIFF,
  /** Key deltas with timestamp prefixes and repeated values left out. */
  FAST_DIFF,
  /** Plain KeyValue cells followed by an index of the offsets where rows start. */
  ROW_INDEX_V1
}
