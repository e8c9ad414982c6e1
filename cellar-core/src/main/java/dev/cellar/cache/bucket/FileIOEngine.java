package dev.cellar.cache.bucket;

import dev.cellar.io.PositionalFile;
import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code file:} and {@code files:} engines: the capacity spread over one or more files, each
 * read and written in place with positional I/O; reads copy into the caller's buffer.
 *
 * <p><b>Layout.</b> The capacity is a whole number of segments (the cache's buckets), dealt out to
 * the files in order: each file gets {@code segments / files} segments and the first {@code
 * segments % files} files one more. Offset {@code o} lives in the file whose range holds it, at
 * {@code o} minus that file's first offset. An access never crosses from one file into the next
 * (bucket allocation guarantees it); one that would throws {@link IllegalArgumentException}.
 *
 * <p><b>Memory and persistence.</b> The engine holds no memory of its own: bytes move between the
 * caller's {@link Buf} (pooled off-heap or heap) and the files through the buffer's NIO views.
 * Persistent: with {@code keepExisting}, files already of the right size are kept untouched so a
 * restart finds the cached bytes; otherwise every file is created again.
 *
 * <p><b>Concurrency.</b> The file table is final. Disjoint ranges may be read and written from any
 * thread at once; each {@link PositionalFile} reopens its channel, under its own lock, when an
 * interrupted thread closed it, so one interrupted reader does not break the engine for others.
 * {@link #close()} must not race other calls.
 */
public final class FileIOEngine implements IOEngine {

  private final PositionalFile[] files;

  /** The engine offset of each file's first byte. */
  private final long[] starts;

  private final long capacity;

  /**
   * Opens (or creates) {@code paths} holding {@code capacity} bytes between them.
   *
   * @param segmentSize the unit the capacity is dealt out in; no access crosses one
   * @param keepExisting keep files that already have the right size (a warm restart)
   * @throws IllegalArgumentException if the capacity is not a positive multiple of the segment
   *     size, there are fewer segments than files, or a path is listed twice
   */
  public FileIOEngine(List<Path> paths, long capacity, long segmentSize, boolean keepExisting)
      throws IOException {
    EngineChecks.checkSizes(capacity, segmentSize);
    if (paths.isEmpty() || paths.stream().distinct().count() != paths.size()) {
      throw new IllegalArgumentException(
          "a file engine needs one or more distinct files: " + paths);
    }
    long segments = capacity / segmentSize;
    if (segments < paths.size()) {
      throw new IllegalArgumentException(
          capacity
              + " bytes make "
              + segments
              + " segments of "
              + segmentSize
              + " bytes, too few to give each of "
              + paths.size()
              + " files one");
    }
    this.capacity = capacity;
    this.files = new PositionalFile[paths.size()];
    this.starts = new long[paths.size()];
    long start = 0;
    try {
      for (int i = 0; i < files.length; i++) {
        long fileSegments = segments / files.length + (i < segments % files.length ? 1 : 0);
        starts[i] = start;
        files[i] = PositionalFile.open(paths.get(i), fileSegments * segmentSize, keepExisting);
        start += files[i].size();
      }
    } catch (IOException | RuntimeException e) {
      closeOpened(e);
      throw e;
    }
  }

  private void closeOpened(Exception failure) {
    for (PositionalFile file : files) {
      if (file != null) {
        try {
          file.close();
        } catch (IOException e) {
          failure.addSuppressed(e);
        }
      }
    }
  }

  @Override
  public long capacity() {
    return capacity;
  }

  @Override
  public boolean isPersistent() {
    return true;
  }

  @Override
  public boolean sharesMemory() {
    return false;
  }

  @Override
  public void write(Buf src, int srcIndex, int length, long offset) throws IOException {
    int index = fileOf(offset, length);
    files[index].writeFully(offset - starts[index], src, srcIndex, length);
  }

  @Override
  public void read(long offset, Buf dst, int dstIndex, int length) throws IOException {
    int index = fileOf(offset, length);
    files[index].readFully(offset - starts[index], dst, dstIndex, length);
  }

  /** The file holding the access, checked to be in range and inside that one file. */
  private int fileOf(long offset, int length) {
    EngineChecks.checkRange(this, offset, length);
    int found = Arrays.binarySearch(starts, offset);
    // Between two starts, or at the very end of the capacity: the file starting before.
    int index = found >= 0 ? found : -found - 2;
    EngineChecks.checkWithinPiece(
        this, offset, length, "file", files[index].path(), starts[index] + files[index].size());
    return index;
  }

  /** Unsupported: reads copy into the caller's buffer. */
  @Override
  public Buf view(long offset, int length, RefCnt refCnt) {
    throw new UnsupportedOperationException(description() + " does not share memory; use read");
  }

  /** Forces every file's content and metadata to stable storage. */
  @Override
  public void sync() throws IOException {
    for (PositionalFile file : files) {
      file.force();
    }
  }

  @Override
  public String description() {
    return (files.length == 1 ? "file:" : "files:")
        + Arrays.stream(files).map(f -> f.path().toString()).collect(Collectors.joining(","));
  }

  /** Closes every file, even when closing one fails. */
  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (PositionalFile file : files) {
      try {
        file.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "FileIOEngine[" + description() + ", " + capacity + " bytes]";
  }
}
