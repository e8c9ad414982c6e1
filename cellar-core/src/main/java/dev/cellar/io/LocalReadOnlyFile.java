package dev.cellar.io;

import dev.cellar.memory.Buf;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local {@link ReadOnlyFile}: positional {@link FileChannel#read(ByteBuffer, long)} into the
 * destination's own NIO views, which moves no shared position, so reads run concurrently.
 */
final class LocalReadOnlyFile extends ReadOnlyFile {

  private final FileChannel channel;

  private LocalReadOnlyFile(Path path, FileChannel channel) {
    super(path);
    this.channel = channel;
  }

  static LocalReadOnlyFile openLocal(Path path) throws IOException {
    return new LocalReadOnlyFile(path, FileChannel.open(path, StandardOpenOption.READ));
  }

  @Override
  public long size() throws IOException {
    return channel.size();
  }

  @Override
  public void readFully(long position, Buf dst, int dstIndex, int length) throws IOException {
    long at = position;
    for (ByteBuffer target : dst.writableByteBuffers(dstIndex, length)) {
      while (target.hasRemaining()) {
        int read = channel.read(target, at);
        if (read < 0) {
          throw new EOFException(path() + ": wanted " + length + " bytes at offset " + position
              + " but the file ends at " + channel.size());
        }
        at += read;
      }
    }
  }

  @Override
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
}
