package dev.cellar.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A temporary directory for a benchmark's files, deleted with everything in it on close, or when
 * the JVM exits if it was never closed (JMH skips the teardown of a state whose setup failed, and a
 * bucket cache file is hundreds of megabytes).
 */
final class TempDir implements AutoCloseable {

  private final Path path;
  private final Thread deleteAtExit;

  TempDir(String prefix) throws IOException {
    path = Files.createTempDirectory(prefix);
    deleteAtExit = new Thread(this::delete, "delete " + path);
    Runtime.getRuntime().addShutdownHook(deleteAtExit);
  }

  /** The path of {@code name} in the directory. */
  Path resolve(String name) {
    return path.resolve(name);
  }

  @Override
  public void close() {
    Runtime.getRuntime().removeShutdownHook(deleteAtExit);
    delete();
  }

  private void delete() {
    try (Stream<Path> walk = Files.walk(path)) {
      List<Path> deepestFirst = walk.sorted(Comparator.reverseOrder()).toList();
      for (Path file : deepestFirst) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + path, e);
    }
  }
}
