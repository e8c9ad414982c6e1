package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One side of {@code cellar bench rocksdb}: a store holding PE-shaped rows (a 26-byte key, one
 * value) opened with a block cache of a given size. Loading, reading and writing go through the
 * same calls on both sides so that the workload is the same.
 */
interface ComparedStore extends AutoCloseable {

  String name();

  /** Writes row {@code row} (not durably: the load is followed by a flush). */
  void put(byte[] key, byte[] value) throws IOException;

  /** Writes everything to files and merges them into as few as the store makes. */
  void flushAndCompact() throws IOException;

  /** A copy of the value of {@code key}, or null. */
  byte[] get(byte[] key) throws IOException;

  /**
   * A reader per thread: each operation gets one random row among {@code rows} (the row drawn from
   * {@code seed} and the thread) and returns 1 if its value has {@code valueSize} bytes, else 0.
   */
  Worker.Factory readers(long rows, int valueSize, long seed);

  /**
   * A writer per thread: each operation writes the next {@code batchRows} rows of the thread's
   * {@link NewRows.Cursor} as one batch, with the store's write-ahead log on and synced
   * ({@code fdatasync}) once per batch before it returns, and returns {@code batchRows}.
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
