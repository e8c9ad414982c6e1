package dev.cellar.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file-system changes a log must make durable beside its appends: cutting a file short and
 * recording a directory's entries. Stateless and thread-safe.
 */
public final class DurableFiles {

  private DurableFiles() {}

  /** Cuts {@code path} to {@code length} bytes and forces the new length to stable storage. */
  public static void truncate(Path path, long length) throws IOException {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
      channel.truncate(length);
      channel.force(true);
    }
  }

  /**
   * Forces the entries of {@code directory} (files created or deleted in it) to stable storage, so
   * that a new file survives a crash by name, not only by content.
   */
  public static void syncDirectory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
