package dev.cellar.io;

import dev.cellar.memory.Buf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A new file written sequentially (HFiles, write-ahead logs), with an explicit {@link #sync()} to
 * make what was written durable.
 *
 * <p>Not thread-safe: one writer appends; callers that share it must serialize their appends.
 */
public final class AppendOnlyFile implements AutoCloseable {

  private final Path path;
  private final FileChannel channel;
  private long position;

  private AppendOnlyFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Creates {@code path}, which must not exist yet. */
  public static AppendOnlyFile create(Path path) throws IOException {
    return new AppendOnlyFile(path, FileChannel.open(path, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE));
  }

  /**
   * Appends through {@code channel}, a new empty file's writable channel, which this file closes:
   * how a {@link Storage} that watches or fails writes and forces hands out its files.
   */
  public static AppendOnlyFile over(Path path, FileChannel channel) {
    return new AppendOnlyFile(path, channel);
  }

  public Path path() {
    return path;
  }

  /** Bytes appended so far: the file offset the next append lands at. */
  public long position() {
    return position;
  }

  public void append(byte[] bytes, int offset, int length) throws IOException {
    write(ByteBuffer.wrap(bytes, offset, length));
  }

  /** Appends {@code length} bytes of {@code src} from {@code index}. */
  public void append(Buf src, int index, int length) throws IOException {
    for (ByteBuffer piece : src.slice(index, length).readOnlyByteBuffers()) {
      write(piece);
    }
  }

  /**
   * Appends the remaining bytes of {@code buffers}, in order, with as few system calls as the OS
   * allows (a gathering write).
   */
  public void append(ByteBuffer[] buffers) throws IOException {
    int first = 0;
    while (first < buffers.length) {
      position += channel.write(buffers, first, buffers.length - first);
      while (first < buffers.length && !buffers[first].hasRemaining()) {
        first++;
      }
    }
  }

  private void write(ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      position += channel.write(buffer);
    }
  }

  /** Forces everything appended so far, and the file's length, to stable storage. */
  public void sync() throws IOException {
    channel.force(true);
  }

  /**
   * Forces everything appended so far to stable storage, with the file length reading it back
   * needs but without other metadata such as the modification time ({@code fdatasync}): cheaper
   * than {@link #sync()} and enough for a log that is only ever appended to.
   */
  public void syncData() throws IOException {
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  @Override
  public String toString() {
    return "AppendOnlyFile[" + path + " at " + position + "]";
  }
}
