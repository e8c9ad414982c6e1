package dev.cellar.store.wal;

import dev.cellar.io.AppendOnlyFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** A segment written to a real file through {@link AppendOnlyFile}. Not thread-safe. */
final class AppendOnlyFileOutput implements SegmentOutput {

  private final AppendOnlyFile file;

  private AppendOnlyFileOutput(AppendOnlyFile file) {
    this.file = file;
  }

  /** Creates the segment file {@code path}, which must not exist yet. */
  static SegmentOutput create(Path path) throws IOException {
    return new AppendOnlyFileOutput(AppendOnlyFile.create(path));
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
  public void close() throws IOException {
    file.close();
  }
}
