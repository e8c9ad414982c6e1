package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;

/**
 * One side of {@code cellar bench rocksdb}: a store holding rows of one {@link RowShape} (a key,
 * one or more values) opened with a block cache of a given size. Loading, reading, scanning and
 * writing go through the same calls on both sides so that the workload is the same.
 */
interface ComparedStore extends AutoCloseable {

  String name();

  /** Writes a row's columns, {@code values} in column order (not durably: a flush follows). */
  void put(byte[] key, byte[][] values) throws IOException;

  /** Writes everything to files and merges them into as few as the store makes. */
  void flushAndCompact() throws IOException;

  /**
   * Copies of the values of the columns of {@code key}, a row of {@code shape}, in column order
   * (null where absent); null if the row is absent.
   */
  byte[][] get(RowShape shape, byte[] key) throws IOException;

  /**
   * A reader per thread: each operation gets one random row among {@code rows} (the row drawn from
   * {@code seed} and the thread) and returns 1 if every one of its values has the shape's size,
   * else 0.
   */
  Worker.Factory readers(RowShape shape, long rows, long seed);

  /**
   * A scanner per thread: each operation scans the next range of the thread's {@link
   * ScanRanges.Cursor}, reading every row's key and every value (copied into reused arrays, or read
   * in place), and returns the rows read whose key and values have the shape's sizes. A scan that
   * returns more or fewer rows than its range holds, or rows of the wrong shape, adds the
   * difference to {@code wrongRows}.
   *
   * @param cacheBlocks whether the blocks the scans read go into the block cache
   */
  Worker.Factory scanners(ScanRanges ranges, boolean cacheBlocks, LongAdder wrongRows);

  /**
   * A writer per thread: each operation writes the next {@code batchRows} rows of the thread's
   * {@link NewRows.Cursor} as one batch, with the store's write-ahead log on and synced ({@code
   * fdatasync}) once per batch before it returns, and returns {@code batchRows}.
   */
  Worker.Factory batchWriters(NewRows rows, int batchRows);

  /** The bytes of the store's files. */
  long diskBytes() throws IOException;

  /** The block cache's hits and misses since the last call, as one line. */
  String cacheSinceLastCall();

  @Override
  void close() throws IOException;

  /** Opens a store in a directory with a block cache of a given size. */
  @FunctionalInterface
  interface Opener {
    ComparedStore open(Path directory, long cacheBytes) throws IOException;
  }
}
