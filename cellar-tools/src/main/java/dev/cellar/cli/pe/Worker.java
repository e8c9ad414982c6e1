package dev.cellar.cli.pe;

import java.io.IOException;

/**
 * One thread's operations of a measured phase. {@link LoadRunner} creates one per thread, on that
 * thread, calls {@link #execute} once per operation and closes it at the end. Not thread-safe.
 */
public interface Worker extends AutoCloseable {

  /**
   * Runs operation number {@code iteration} (for PE, the row index HBase's {@code testRow} gets).
   *
   * @return the rows the operation read or wrote; 0 when a read found nothing
   */
  long execute(long iteration) throws IOException;

  @Override
  void close() throws IOException;

  /** Makes the worker of thread {@code thread} (0-based). */
  @FunctionalInterface
  interface Factory {
    Worker create(int thread) throws IOException;
  }
}
