package dev.cellar.hdfs;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

/**
 * An input stream over a byte array with positional reads and no stream capabilities: what a file
 * system that cannot read into a {@link java.nio.ByteBuffer} hands out.
 */
final class ArrayPositionedStream extends ByteArrayInputStream
    implements Seekable, PositionedReadable {

  ArrayPositionedStream(byte[] bytes) {
    super(bytes);
  }

  @Override
  public synchronized int read(long position, byte[] buffer, int offset, int length) {
    if (position >= count) {
      return -1;
    }
    int n = (int) Math.min(length, count - position);
    System.arraycopy(buf, (int) position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    if (read(position, buffer, offset, length) < length) {
      throw new EOFException("past the end");
    }
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }

  @Override
  public synchronized void seek(long position) {
    pos = (int) position;
  }

  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }
}
