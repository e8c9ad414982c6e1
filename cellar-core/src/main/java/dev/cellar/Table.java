package dev.cellar;

import dev.cellar.filter.CompareOperator;
import java.io.IOException;
import java.util.List;

/**
 * Reads and writes one table. Thread-safe: one instance may be shared by every thread. Each
 * {@link Result} returned holds the memory its cells point into until it is closed.
 */
public interface Table {

  String name();

  void put(Put put) throws IOException;

  void put(List<Put> puts) throws IOException;

  void delete(Delete delete) throws IOException;

  Result get(Get get) throws IOException;

  /** One result per get, in order (empty results for missing rows). */
  Result[] get(List<Get> gets) throws IOException;

  /**
   * A reader of single rows for one thread that allocates nothing per read (see {@link
   * RowReader}); the caller closes it.
   */
  RowReader rowReader();

  ResultScanner scanner(Scan scan) throws IOException;

  /** Applies each mutation in turn (each atomic on its own row). */
  void batch(List<? extends Mutation> mutations) throws IOException;

  /**
   * Applies {@code mutation} only if the newest value of family:qualifier in the mutation's row
   * compares as {@code operator} says against {@code value} (HBase's order: {@code value operator
   * current}); a null {@code value} with EQUAL means "the column is absent". Atomic with respect to
   * other writes of the row.
   *
   * @return whether the mutation was applied
   */
  boolean checkAndMutate(byte[] family, byte[] qualifier, CompareOperator operator, byte[] value,
      Mutation mutation) throws IOException;
}
