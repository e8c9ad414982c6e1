package dev.cellar.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The file-system operations the store makes to change its files: creating a file to append to,
 * renaming one into place, deleting, listing, creating directories, forcing a directory's entries
 * to stable storage, and holding a directory against other processes. Reads of existing files go
 * straight to {@link ReadOnlyFile}.
 *
 * <p>{@link #local()} is the one implementation of the product; tests wrap it to fail an operation
 * on command or to forget what was not forced when they simulate a power loss, which is why every
 * change the store must make durable goes through here.
 *
 * <p>Implementations are thread-safe.
 */
public interface Storage {

  /** The local file system. */
  static Storage local() {
    return LocalStorage.INSTANCE;
  }

  /** Creates {@code path}, which must not exist yet, for sequential writes. */
  AppendOnlyFile create(Path path) throws IOException;

  /** Creates {@code directory} and any missing parent. */
  void createDirectories(Path directory) throws IOException;

  /**
   * Renames {@code source} to {@code target} in one step, replacing {@code target} if it exists:
   * a reader sees the old file or the new one, never neither. Durable only once the directory is
   * synced ({@link #syncDirectory}).
   */
  void rename(Path source, Path target) throws IOException;

  /**
   * Deletes {@code path} if it exists; returns whether it did. Durable only once the directory is
   * synced.
   */
  boolean deleteIfExists(Path path) throws IOException;

  /** The entries of {@code directory}, sorted by name; empty if it does not exist. */
  List<Path> list(Path directory) throws IOException;

  /**
   * Forces the entries of {@code directory} (files created, renamed or deleted in it) to stable
   * storage.
   */
  void syncDirectory(Path directory) throws IOException;

  /**
   * Takes the exclusive hold on {@code directory} at once (see {@link DirectoryLock}).
   *
   * @throws DirectoryLockedException naming the directory and the holder, if it is held
   */
  DirectoryLock lock(Path directory) throws IOException;
}
