package dev.cellar.io;

import dev.cellar.memory.Buf;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file of fixed size read and written in place at explicit positions, straight from and into
 * {@link Buf}s, by many threads at once (the bucket cache's {@code file:} engine).
 *
 * <p><b>Concurrency.</b> Positional channel I/O moves no shared position, so disjoint ranges may be
 * read and written concurrently. An interrupt is the catch: a thread interrupted during (or before)
 * a channel operation gets {@link ClosedByInterruptException}, and the JDK closes the channel for
 * every thread. That thread's operation fails with an {@link InterruptedIOException}; any other
 * thread that then finds the channel closed reopens it under this file's lock and retries its
 * operation once, as HBase's FileIOEngine does. (The interrupted thread keeps its interrupt status,
 * and each channel operation it starts before clearing it closes the channel again; callers should
 * stop using the file from that thread.) The lock only orders reopens and {@link #close()}: the
 * channel is a volatile field read without it, and a thread that waited for the lock uses the
 * channel another thread reopened instead of opening one more. After {@link #close()} nothing
 * reopens, and operations fail.
 */
public final class PositionalFile implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PositionalFile.class);

  /** The channel operations that may have to be retried on a reopened channel. */
  private enum Op {
    READ("reading"),
    WRITE("writing"),
    FORCE("forcing");

    final String verb;

    Op(String verb) {
      this.verb = verb;
    }

    int on(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
      return switch (this) {
        case READ -> channel.read(buffer, position);
        case WRITE -> channel.write(buffer, position);
        case FORCE -> {
          channel.force(true);
          yield 0;
        }
      };
    }
  }

  private final Path path;
  private final long size;
  private final Object reopenLock = new Object();
  private volatile FileChannel channel;

  /** Guarded by reopenLock. */
  private boolean closed;

  private PositionalFile(Path path, long size, FileChannel channel) {
    this.path = path;
    this.size = size;
    this.channel = channel;
  }

  /**
   * Opens {@code path} as a file of {@code size} bytes. With {@code keepExisting}, an existing file
   * of exactly that size is kept untouched (not even its length is set, so its content and
   * modification time survive); otherwise the file is created again, reading as zeros.
   */
  public static PositionalFile open(Path path, long size, boolean keepExisting) throws IOException {
    FixedSizeFiles.prepare(path, size, keepExisting);
    return new PositionalFile(path, size, openChannel(path));
  }

  private static FileChannel openChannel(Path path) throws IOException {
    return FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  public Path path() {
    return path;
  }

  /** The file's length in bytes, fixed at {@link #open}. */
  public long size() {
    return size;
  }

  /**
   * Reads exactly {@code length} bytes at file offset {@code position} into {@code dst} from {@code
   * dstIndex}.
   *
   * @throws IndexOutOfBoundsException if the range is not inside the file
   * @throws EOFException if the file was truncated behind our back
   * @throws InterruptedIOException if this thread was interrupted
   */
  public void readFully(long position, Buf dst, int dstIndex, int length) throws IOException {
    Objects.checkFromIndexSize(position, length, size);
    long at = position;
    for (ByteBuffer target : dst.writableByteBuffers(dstIndex, length)) {
      while (target.hasRemaining()) {
        int read = transfer(Op.READ, target, at);
        if (read < 0) {
          throw new EOFException(
              path
                  + ": wanted "
                  + length
                  + " bytes at offset "
                  + position
                  + " but the file ends at offset "
                  + at);
        }
        at += read;
      }
    }
  }

  /**
   * Writes {@code length} bytes of {@code src} from {@code srcIndex} at file offset {@code
   * position}.
   *
   * @throws IndexOutOfBoundsException if the range is not inside the file
   * @throws InterruptedIOException if this thread was interrupted
   */
  public void writeFully(long position, Buf src, int srcIndex, int length) throws IOException {
    Objects.checkFromIndexSize(position, length, size);
    long at = position;
    for (ByteBuffer piece : src.slice(srcIndex, length).readOnlyByteBuffers()) {
      while (piece.hasRemaining()) {
        at += transfer(Op.WRITE, piece, at);
      }
    }
  }

  /** Forces the file's content and metadata to stable storage. */
  public void force() throws IOException {
    transfer(Op.FORCE, null, 0);
  }

  private int transfer(Op op, ByteBuffer buffer, long position) throws IOException {
    try {
      return op.on(channel, buffer, position);
    } catch (ClosedByInterruptException e) {
      throw failure(op, position, e);
    } catch (ClosedChannelException e) {
      try {
        return op.on(reopen(e), buffer, position);
      } catch (IOException retry) {
        retry.addSuppressed(e);
        throw failure(op, position, retry);
      }
    } catch (IOException e) {
      throw failure(op, position, e);
    }
  }

  private FileChannel reopen(ClosedChannelException cause) throws IOException {
    synchronized (reopenLock) {
      if (closed) {
        throw new ClosedChannelException();
      }
      FileChannel current = channel;
      if (!current.isOpen()) {
        LOG.warn("{}: the channel was closed by an interrupted thread; reopening it", path, cause);
        current = openChannel(path);
        channel = current;
      }
      return current;
    }
  }

  private IOException failure(Op op, long position, IOException cause) {
    String where = path + ": " + op.verb + (op == Op.FORCE ? "" : " at offset " + position);
    if (cause instanceof ClosedByInterruptException) {
      InterruptedIOException interrupted =
          new InterruptedIOException(
              where + " was interrupted; the channel is reopened on next use");
      interrupted.initCause(cause);
      return interrupted;
    }
    if (cause instanceof ClosedChannelException && isClosed()) {
      return new IOException(where + " failed: the file is closed", cause);
    }
    return new IOException(where + " failed: " + cause, cause);
  }

  private boolean isClosed() {
    synchronized (reopenLock) {
      return closed;
    }
  }

  /** Closes the channel; nothing reopens it afterwards. */
  @Override
  public void close() throws IOException {
    synchronized (reopenLock) {
      closed = true;
      channel.close();
    }
  }

  @Override
  public String toString() {
    return "PositionalFile[" + path + ", " + size + " bytes]";
  }
}
