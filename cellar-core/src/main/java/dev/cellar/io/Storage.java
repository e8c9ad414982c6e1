package dev.cellar.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Every file-system operation a database makes on its files (HFiles, log segments, manifests, table
 * descriptors, the lock): opening a file for positional reads, creating one to append to, renaming
 * one into place, deleting, listing, asking what a path is, creating directories, forcing a
 * directory's entries to stable storage, and holding a directory against other writers.
 *
 * <p><b>Implementations.</b> {@link #local()} is the local file system. Other file systems (HDFS)
 * come from {@link StorageProvider}s found by URI scheme ({@link StorageLocation}); their paths are
 * absolute paths inside that file system, carried as {@link Path}s of the default file system only
 * as names: nothing but the storage that handed them out may touch them. Tests wrap the local one
 * to fail an operation on command or to forget what was not forced when they simulate a power loss,
 * which is why every change the store must make durable goes through here.
 *
 * <p>Implementations are thread-safe.
 */
public interface Storage {

  /** The local file system. */
  static Storage local() {
    return LocalStorage.INSTANCE;
  }

  /** Opens {@code path} for positional reads by any number of threads. */
  ReadOnlyFile openRead(Path path) throws IOException;

  /**
   * Opens {@code path}, a file that no longer changes (an HFile), for positional reads by any
   * number of threads; a storage may read such a file by a faster way (the local one maps it).
   */
  default ReadOnlyFile openReadImmutable(Path path) throws IOException {
    return openRead(path);
  }

  /** Creates {@code path}, which must not exist yet, for sequential writes. */
  AppendOnlyFile create(Path path) throws IOException;

  /** Whether {@code path} is a regular file. */
  boolean isFile(Path path) throws IOException;

  /** Whether {@code path} is a directory (not a symbolic link to one). */
  boolean isDirectory(Path path) throws IOException;

  /** The length of the file {@code path} in bytes. */
  long size(Path path) throws IOException;

  /** The whole content of the small file {@code path} (a descriptor or a manifest). */
  byte[] readAllBytes(Path path) throws IOException;

  /** Creates {@code directory} and any missing parent. */
  void createDirectories(Path directory) throws IOException;

  /**
   * Renames {@code source} to {@code target} in one step, replacing {@code target} if it exists: a
   * reader sees the old file or the new one, never neither. Durable only once the directory is
   * synced ({@link #syncDirectory}).
   */
  void rename(Path source, Path target) throws IOException;

  /**
   * Deletes {@code path} if it exists; returns whether it did. Durable only once the directory is
   * synced.
   */
  boolean deleteIfExists(Path path) throws IOException;

  /**
   * Cuts the closed file {@code path} to {@code length} bytes and makes the new length durable
   * before returning (the log's torn tail).
   */
  void truncate(Path path, long length) throws IOException;

  /** The entries of {@code directory}, sorted by name; empty if it does not exist. */
  List<Path> list(Path directory) throws IOException;

  /**
   * Forces the entries of {@code directory} (files created, renamed or deleted in it) to stable
   * storage.
   */
  void syncDirectory(Path directory) throws IOException;

  /**
   * Takes the exclusive hold on {@code directory} at once.
   *
   * @throws DirectoryLockedException naming the directory and the holder, if it is held
   */
  StorageLock lock(Path directory) throws IOException;

  /**
   * Whether a writer holds {@code directory}, without keeping a hold: the holder's description, or
   * empty if it is free. For offline checks; the answer may be stale as soon as it is returned.
   */
  Optional<String> probeLock(Path directory) throws IOException;

  /**
   * Makes sure no earlier writer of the log segment {@code path} can append to it any more, before
   * it is read for recovery (HDFS: recovers the file's lease). Nothing to do on a local disk, where
   * the directory lock died with its process.
   */
  default void recoverWriter(Path path) throws IOException {}

  /** How {@code path} is named to a user: a local path, or a URI on another file system. */
  default String describe(Path path) {
    return path.toString();
  }
}
