package dev.cellar.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Prepares the fixed-size files that cache engines read and write in place. */
final class FixedSizeFiles {

  private FixedSizeFiles() {}

  /**
   * Makes {@code path} a file of exactly {@code size} bytes. With {@code keepExisting}, a regular
   * file of that size is left untouched (content and modification time survive, for a warm
   * restart); otherwise the file is created, or truncated to nothing, and extended sparsely to
   * {@code size}, so it reads as zeros. Symbolic links are followed, so the file may live
   * elsewhere.
   */
  static void prepare(Path path, long size, boolean keepExisting) throws IOException {
    if (size <= 0) {
      throw new IllegalArgumentException(path + ": file size must be > 0, was " + size);
    }
    if (keepExisting && Files.isRegularFile(path) && Files.size(path) == size) {
      return;
    }
    try (FileChannel channel =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.write(ByteBuffer.allocate(1), size - 1);
    }
  }
}
