package dev.cellar.io;

import java.io.IOException;
import java.nio.file.Path;

/** An exclusive hold on a directory taken through a {@link Storage}; closing releases it. */
public interface StorageLock extends AutoCloseable {

  /** The held directory. */
  Path directory();

  /**
   * Fails if the hold was taken away: on HDFS, where another opener recovers the lease of a writer
   * it found dead, a writer that was only paused learns it here. The log calls it after creating
   * each segment and before writing an entry to it, which fences such a writer off (see {@code
   * HadoopStorage}). A local hold cannot be taken away.
   *
   * @throws IOException naming the directory, if the hold is lost
   */
  default void checkHeld() throws IOException {}

  /** Releases the hold; idempotent. */
  @Override
  void close() throws IOException;
}
