package dev.cellar.io;

import dev.cellar.memory.Buf;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local {@link ReadOnlyFile}: positional {@link FileChannel#read(ByteBuffer, long)} into the
 * destination's own NIO views, which moves no shared position, so reads run concurrently.
 *
 * <p><b>Mapped reads.</b> A file that does not change once written (an HFile) may be opened
 * {@linkplain #openMapped mapped}: its length at open is mapped read-only, and a read within it is
 * one copy from the mapping into the destination, with no system call and no kernel copy, where a
 * positional read of a 64 KiB block costs a {@code pread} that copies the page cache's pages
 * (measured: twice the time of the user-space copy). Bytes past the mapped length are read through
 * the channel. The mapping lives in its own shared arena, unmapped by {@link #close()}; a file
 * deleted while open keeps its pages until then, as an open descriptor does. {@value
 * #MAPPED_READS_PROPERTY}{@code =false} turns mapping off for the JVM.
 *
 * <p>Thread-safe: copies from the mapping share nothing. Closing while reads are in flight makes
 * them fail with an {@link IOException}; {@link #close()} unmaps once no copy is in progress.
 */
final class LocalReadOnlyFile extends ReadOnlyFile {

  /** System property: {@code false} opens every file unmapped. */
  static final String MAPPED_READS_PROPERTY = "cellar.io.mappedReads";

  private static final boolean MAPPED_READS =
      !"false".equalsIgnoreCase(System.getProperty(MAPPED_READS_PROPERTY));

  private final FileChannel channel;

  /** Null when unmapped. */
  private final Arena mappingArena;

  /** The mapped prefix of the file; empty when unmapped. */
  private final MemorySegment mapped;

  private LocalReadOnlyFile(
      Path path, FileChannel channel, Arena mappingArena, MemorySegment mapped) {
    super(path);
    this.channel = channel;
    this.mappingArena = mappingArena;
    this.mapped = mapped;
  }

  static LocalReadOnlyFile openLocal(Path path) throws IOException {
    return new LocalReadOnlyFile(
        path, FileChannel.open(path, StandardOpenOption.READ), null, MemorySegment.NULL);
  }

  /**
   * Opens {@code path}, which must not change while open, with its current length mapped for reads
   * (unless mapped reads are turned off, or the file is empty).
   */
  static LocalReadOnlyFile openLocalMapped(Path path) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      long size = channel.size();
      if (!MAPPED_READS || size == 0) {
        return new LocalReadOnlyFile(path, channel, null, MemorySegment.NULL);
      }
      Arena arena = Arena.ofShared();
      try {
        return new LocalReadOnlyFile(
            path, channel, arena, channel.map(MapMode.READ_ONLY, 0, size, arena));
      } catch (IOException | RuntimeException e) {
        arena.close();
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override
  public boolean isMapped() {
    return mappingArena != null;
  }

  @Override
  public long size() throws IOException {
    return channel.size();
  }

  @Override
  public void readFully(long position, Buf dst, int dstIndex, int length) throws IOException {
    if (copyMapped(position, dst, dstIndex, length)) {
      return;
    }
    long at = position;
    for (ByteBuffer target : dst.writableByteBuffers(dstIndex, length)) {
      while (target.hasRemaining()) {
        int read = channel.read(target, at);
        if (read < 0) {
          throw new EOFException(
              path()
                  + ": wanted "
                  + length
                  + " bytes at offset "
                  + position
                  + " but the file ends at "
                  + channel.size());
        }
        at += read;
      }
    }
  }

  @Override
  public int read(long position, Buf dst, int dstIndex, int length) throws IOException {
    if (copyMapped(position, dst, dstIndex, length)) {
      return length;
    }
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

  /**
   * Copies the range from the mapping when it lies within it.
   *
   * @return false, copying nothing, when the range is not (wholly) mapped
   */
  private boolean copyMapped(long position, Buf dst, int dstIndex, int length) throws IOException {
    if (position < 0 || length > mapped.byteSize() - position) {
      return false;
    }
    try {
      dst.putBytes(dstIndex, mapped, position, length);
      return true;
    } catch (IllegalStateException e) {
      if (mappingArena.scope().isAlive()) {
        throw e;
      }
      ClosedChannelException closed = new ClosedChannelException();
      closed.initCause(e);
      throw closed;
    } catch (InternalError e) {
      throw new IOException(
          path()
              + ": the file changed under its mapping at offset "
              + position
              + " ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  /** Closes the channel, then unmaps once no copy from the mapping is in progress. */
  @Override
  public void close() throws IOException {
    channel.close();
    if (mappingArena != null && mappingArena.scope().isAlive()) {
      unmap();
    }
  }

  private void unmap() {
    for (; ; ) {
      try {
        mappingArena.close();
        return;
      } catch (IllegalStateException inUse) {
        if (!mappingArena.scope().isAlive()) {
          return;
        }
        Thread.onSpinWait();
      }
    }
  }
}
