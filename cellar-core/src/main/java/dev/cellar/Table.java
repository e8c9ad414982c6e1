package dev.cellar;

import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.CompareOperator;
import java.io.IOException;
import java.util.List;

/**
 * Reads and writes one table. Thread-safe: one instance may be shared by every thread. Each {@link
 * Result} returned holds the memory its cells point into until it is closed.
 */
public interface Table {

  String name();

  void put(Put put) throws IOException;

  /** Writes every put as one batch: see {@link #batch}. */
  void put(List<Put> puts) throws IOException;

  void delete(Delete delete) throws IOException;

  Result get(Get get) throws IOException;

  /** One result per get, in order (empty results for missing rows). */
  Result[] get(List<Get> gets) throws IOException;

  /**
   * A reader of single rows for one thread that allocates nothing per read (see {@link RowReader});
   * the caller closes it.
   */
  RowReader rowReader();

  /**
   * The rows of {@code scan}, each as a {@link Result} holding its cells' memory until it is
   * closed; the caller closes the scanner.
   */
  ResultScanner scanner(Scan scan) throws IOException;

  /**
   * The rows of {@code scan} for one thread, each read into the scanner's one reused view, without
   * allocating per row (see {@link RowScanner}); the caller closes the scanner.
   */
  RowScanner rowScanner(Scan scan) throws IOException;

  /**
   * Applies the mutations as one write: in list order (a later mutation of the same column replaces
   * an earlier one), visible to reads all at once, with one write-ahead-log entry synced once for
   * the strongest durability among them (a {@code SKIP_WAL} or {@code ASYNC_WAL} mutation in a
   * batch with a {@code SYNC_WAL} one is logged and synced with it).
   */
  void batch(List<? extends Mutation> mutations) throws IOException;

  /**
   * Applies {@code mutation} only if the newest value of family:qualifier in the mutation's row
   * compares as {@code operator} says against {@code value} (HBase's order: {@code value operator
   * current}); a null {@code value} with EQUAL means "the column is absent". Atomic with respect to
   * other writes of the row.
   *
   * @return whether the mutation was applied
   */
  boolean checkAndMutate(
      byte[] family, byte[] qualifier, CompareOperator operator, byte[] value, Mutation mutation)
      throws IOException;

  /**
   * Applies {@code mutation} only if the newest value of family:qualifier in the mutation's row
   * passes {@code comparator} as HBase's check-and-mutate tests it ({@link
   * dev.cellar.filter.ValueCondition}: {@code comparatorValue operator current}, and a comparator
   * with an empty value asks for an absent or empty column). Atomic with respect to other writes of
   * the row.
   *
   * @return whether the mutation was applied
   */
  boolean checkAndMutateWithComparator(
      byte[] family,
      byte[] qualifier,
      CompareOperator operator,
      ByteArrayComparable comparator,
      Mutation mutation)
      throws IOException;
}
