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

  /** Forces everything appended so far to stable storage ({@code fdatasync}). */
  void syncData() throws IOException;

  @Override
  void close() throws IOException;
}
