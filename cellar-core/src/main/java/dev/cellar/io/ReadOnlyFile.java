package dev.cellar.io;

import dev.cellar.memory.Buf;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file opened for positional reads straight into {@link Buf}s (pooled off-heap memory or heap),
 * never through an intermediate {@code byte[]}.
 *
 * <p>Thread-safe: positional {@link FileChannel#read(ByteBuffer, long)} does not move a shared
 * position, so any number of threads may read concurrently. Closing while reads are in flight
 * makes them fail with an {@link IOException}.
 */
public final class ReadOnlyFile implements AutoCloseable {

  private final Path path;
  private final FileChannel channel;

  private ReadOnlyFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  public static ReadOnlyFile open(Path path) throws IOException {
    return new ReadOnlyFile(path, FileChannel.open(path, StandardOpenOption.READ));
  }

  public Path path() {
    return path;
  }

  /** The file's current length in bytes. */
  public long size() throws IOException {
    return channel.size();
  }

  /**
   * Reads exactly {@code length} bytes at file offset {@code position} into {@code dst} from
   * {@code dstIndex}.
   *
   * @throws EOFException naming the file, offset and shortfall if the file ends first
   */
  public void readFully(long position, Buf dst, int dstIndex, int length) throws IOException {
    long at = position;
    for (ByteBuffer target : dst.writableByteBuffers(dstIndex, length)) {
      while (target.hasRemaining()) {
        int read = channel.read(target, at);
        if (read < 0) {
          throw new EOFException(path + ": wanted " + length + " bytes at offset " + position
              + " but the file ends at " + channel.size());
        }
        at += read;
      }
    }
  }

  /**
   * Reads up to {@code length} bytes at {@code position}, stopping early only at end of file.
   *
   * @return the number of bytes read
   */
  public int read(long position, Buf dst, int dstIndex, int length) throws IOException {
    long at = position;
    for (ByteBuffer target : dst.writableByteBuffers(dstIndex, length)) {
      while (target.hasRemaining()) {
        int read = channel.read(target, at);
        if (read < 0) {
          return (int) (at - position);
        }
        at += read;
      }
    }
    return (int) (at - position);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  @Override
  public String toString() {
    return "ReadOnlyFile[" + path + "]";
  }
}
