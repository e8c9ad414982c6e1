package dev.cellar.io;

import dev.cellar.memory.Buf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A new file written sequentially (HFiles, log segments, manifests, descriptors), with explicit
 * forces to make what was written durable. A {@link Storage} hands them out; {@link #create(Path)}
 * creates a local one.
 *
 * <p><b>What the forces promise.</b> {@link #syncData()} is what a {@code SYNC_WAL} write waits
 * for: on a local disk an {@code fdatasync}; on HDFS an {@code hflush}, the bytes in the memory of
 * every DataNode of the pipeline and visible to new readers (HBase's default), or an {@code hsync}
 * where {@code hbase.wal.hsync} asks. {@link #sync()} is an fsync everywhere: on a local disk
 * {@code fsync}, on HDFS {@code hsync}.
 *
 * <p>Not thread-safe: one writer appends; callers that share it must serialize their appends.
 */
public abstract class AppendOnlyFile implements AutoCloseable {

  private final Path path;
  private long position;

  protected AppendOnlyFile(Path path) {
    this.path = path;
  }

  /** Creates the local file {@code path}, which must not exist yet. */
  public static AppendOnlyFile create(Path path) throws IOException {
    return ChannelAppendOnlyFile.createNew(path);
  }

  /**
   * Appends through {@code channel}, a new empty file's writable channel, which this file closes:
   * how a {@link Storage} that watches or fails writes and forces hands out its files.
   */
  public static AppendOnlyFile over(Path path, FileChannel channel) {
    return new ChannelAppendOnlyFile(path, channel);
  }

  public final Path path() {
    return path;
  }

  /** Bytes appended so far: the file offset the next append lands at. */
  public final long position() {
    return position;
  }

  /** Records that {@code bytes} more were appended. */
  protected final void advance(long bytes) {
    position += bytes;
  }

  public final void append(byte[] bytes, int offset, int length) throws IOException {
    write(ByteBuffer.wrap(bytes, offset, length));
  }

  /** Appends {@code length} bytes of {@code src} from {@code index}. */
  public final void append(Buf src, int index, int length) throws IOException {
    for (ByteBuffer piece : src.slice(index, length).readOnlyByteBuffers()) {
      write(piece);
    }
  }

  /**
   * Appends the remaining bytes of {@code buffers}, in order, with as few system calls as the file
   * system allows (a gathering write).
   */
  public abstract void append(ByteBuffer[] buffers) throws IOException;

  /** Appends every remaining byte of {@code buffer}, advancing the position. */
  protected abstract void write(ByteBuffer buffer) throws IOException;

  /** Forces everything appended so far, and the file's length, to stable storage (fsync). */
  public abstract void sync() throws IOException;

  /**
   * Makes everything appended so far as durable as a {@code SYNC_WAL} acknowledgment needs (see the
   * class comment): cheaper than {@link #sync()} and enough for a log that is only ever appended
   * to.
   */
  public abstract void syncData() throws IOException;

  @Override
  public abstract void close() throws IOException;

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + path + " at " + position + "]";
  }
}
