package dev.cellar.store.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Where a segment's bytes go: a new file, appended to and forced. {@link AppendOnlyFileOutput}
 * writes real files; tests wrap it to inject I/O failures. Used by the sync thread only.
 */
interface SegmentOutput extends AutoCloseable {

  /** Creates the outputs of new segment files. */
  @FunctionalInterface
  interface Factory {

    /** Creates {@code path}, which must not exist yet. */
    SegmentOutput create(Path path) throws IOException;
  }

  /** Appends the remaining bytes of {@code buffers}, in order. */
  void append(ByteBuffer[] buffers) throws IOException;

  /**
   * Makes everything appended so far as durable as a {@link Durability#SYNC_WAL} write needs
   * ({@code fdatasync}; {@code hflush} on HDFS).
   */
  void syncData() throws IOException;

  /**
   * Forces everything appended so far as a {@link Durability#FSYNC_WAL} write needs ({@code fsync};
   * {@code hsync} on HDFS). Wrappers that only watch forces may leave it to {@link #syncData()}.
   */
  default void sync() throws IOException {
    syncData();
  }

  @Override
  void close() throws IOException;
}
