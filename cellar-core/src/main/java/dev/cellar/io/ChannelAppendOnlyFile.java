package dev.cellar.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local {@link AppendOnlyFile} through a {@link FileChannel}: gathering writes, {@code fsync} for
 * {@link #sync()} and {@code fdatasync} for {@link #syncData()}.
 */
final class ChannelAppendOnlyFile extends AppendOnlyFile {

  private final FileChannel channel;

  ChannelAppendOnlyFile(Path path, FileChannel channel) {
    super(path);
    this.channel = channel;
  }

  static ChannelAppendOnlyFile createNew(Path path) throws IOException {
    return new ChannelAppendOnlyFile(
        path, FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
  }

  @Override
  public void append(ByteBuffer[] buffers) throws IOException {
    int first = 0;
    while (first < buffers.length) {
      advance(channel.write(buffers, first, buffers.length - first));
      while (first < buffers.length && !buffers[first].hasRemaining()) {
        first++;
      }
    }
  }

  @Override
  protected void write(ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      advance(channel.write(buffer));
    }
  }

  @Override
  public void sync() throws IOException {
    channel.force(true);
  }

  /** {@code fdatasync}: the data and the length reading it back needs, not the times. */
  @Override
  public void syncData() throws IOException {
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
