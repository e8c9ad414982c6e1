package dev.cellar.io;

import dev.cellar.memory.OffHeapRegion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file of fixed size mapped read-write into one {@link MemorySegment}, for engines that keep
 * their bytes in the page cache of a file (the bucket cache's {@code mmap:} and {@code pmem:}).
 *
 * <p><b>Memory.</b> The mapping lives in an {@link OffHeapRegion} of its own, so it is one
 * long-lived shared arena; {@link #close()} unmaps it. The channel used to map is closed at once:
 * the mapping does not need it.
 *
 * <p><b>Concurrency.</b> Disjoint ranges of the segment may be read and written from any thread;
 * {@link #force()} may run alongside them. {@link #close()} must not race other calls.
 */
public final class MappedFile implements AutoCloseable {

  private final Path path;
  private final OffHeapRegion region;

  private MappedFile(Path path, OffHeapRegion region) {
    this.path = path;
    this.region = region;
  }

  /**
   * Maps {@code path} as a file of {@code size} bytes. With {@code keepExisting}, an existing file
   * of exactly that size is mapped as it is; otherwise the file is created again, reading as zeros.
   */
  public static MappedFile open(Path path, long size, boolean keepExisting) throws IOException {
    FixedSizeFiles.prepare(path, size, keepExisting);
    try (FileChannel channel =
        FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      return new MappedFile(
          path, OffHeapRegion.create(arena -> channel.map(MapMode.READ_WRITE, 0, size, arena)));
    } catch (IOException e) {
      throw new IOException(path + ": cannot map " + size + " bytes read-write: " + e, e);
    }
  }

  public Path path() {
    return path;
  }

  /** The mapped bytes; valid until {@link #close()}. */
  public MemorySegment segment() {
    return region.segment();
  }

  /** Writes every modified page back to the file. */
  public void force() throws IOException {
    try {
      region.segment().force();
    } catch (UncheckedIOException e) {
      throw new IOException(
          path + ": forcing the mapping to disk failed: " + e.getCause(), e.getCause());
    }
  }

  /** Unmaps the file; modified pages not yet written back are still written by the OS. */
  @Override
  public void close() {
    region.close();
  }

  @Override
  public String toString() {
    return "MappedFile[" + path + ", " + region.segment().byteSize() + " bytes]";
  }
}
