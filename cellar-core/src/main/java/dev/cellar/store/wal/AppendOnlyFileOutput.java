package dev.cellar.store.wal;

import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A segment written to a file of a {@link Storage} through {@link AppendOnlyFile}. Not thread-safe.
 */
final class AppendOnlyFileOutput implements SegmentOutput {

  private final AppendOnlyFile file;

  private AppendOnlyFileOutput(AppendOnlyFile file) {
    this.file = file;
  }

  /** Creates the outputs of segment files on {@code storage}. */
  static SegmentOutput.Factory on(Storage storage) {
    return path -> new AppendOnlyFileOutput(storage.create(path));
  }

  @Override
  public void append(ByteBuffer[] buffers) throws IOException {
    file.append(buffers);
  }

  @Override
  public void syncData() throws IOException {
    file.syncData();
  }

  @Override
  public void sync() throws IOException {
    file.sync();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
