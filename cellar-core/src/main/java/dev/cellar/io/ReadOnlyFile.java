package dev.cellar.io;

import dev.cellar.memory.Buf;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A file opened for positional reads straight into {@link Buf}s (pooled off-heap memory or heap),
 * never through an intermediate {@code byte[]} where the file system can avoid it. A {@link
 * Storage} hands them out; {@link #open(Path)} opens a local one.
 *
 * <p>Thread-safe: positional reads move no shared position, so any number of threads may read
 * concurrently. Closing while reads are in flight makes them fail with an {@link IOException}.
 *
 * <p>An abstract class rather than an interface, with few subclasses: on the block read path a JVM
 * that loaded only the local one calls it directly.
 */
public abstract class ReadOnlyFile implements AutoCloseable {

  private final Path path;

  protected ReadOnlyFile(Path path) {
    this.path = path;
  }

  /** Opens the local file {@code path}. */
  public static ReadOnlyFile open(Path path) throws IOException {
    return LocalReadOnlyFile.openLocal(path);
  }

  /**
   * Opens the local file {@code path}, which must not change while open, with its current length
   * mapped for reads (see {@link LocalReadOnlyFile}).
   */
  public static ReadOnlyFile openMapped(Path path) throws IOException {
    return LocalReadOnlyFile.openLocalMapped(path);
  }

  /** True if reads within the file's length at open are copies from a mapping. */
  public boolean isMapped() {
    return false;
  }

  public final Path path() {
    return path;
  }

  /** The file's current length in bytes. */
  public abstract long size() throws IOException;

  /**
   * Reads exactly {@code length} bytes at file offset {@code position} into {@code dst} from {@code
   * dstIndex}.
   *
   * @throws EOFException naming the file, offset and shortfall if the file ends first
   */
  public abstract void readFully(long position, Buf dst, int dstIndex, int length)
      throws IOException;

  /**
   * Reads up to {@code length} bytes at {@code position}, stopping early only at end of file.
   *
   * @return the number of bytes read
   */
  public abstract int read(long position, Buf dst, int dstIndex, int length) throws IOException;

  /**
   * After Cellar's own checksums rejected bytes read by {@link #readFully}, reads them again
   * through a path on which the file system verifies its checksums (HDFS: a stream with checksum
   * verification on, which moves to another replica on a mismatch). Returns false, reading nothing,
   * where there is no such path (a local file has one copy).
   */
  public boolean readFullyVerifiedByStorage(long position, Buf dst, int dstIndex, int length)
      throws IOException {
    return false;
  }

  @Override
  public abstract void close() throws IOException;

  /** How the file is named to a user: its local path, or its URI on another file system. */
  public String describe() {
    return path.toString();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + describe() + "]";
  }
}
