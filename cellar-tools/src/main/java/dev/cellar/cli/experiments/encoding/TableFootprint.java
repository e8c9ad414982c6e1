package dev.cellar.cli.experiments.encoding;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The bytes a table's directory holds on disk: its HFiles, descriptor and manifest. */
final class TableFootprint {

  private TableFootprint() {}

  static long bytes(Path database, String table) throws IOException {
    Path directory = database.resolve("tables").resolve(table);
    try (Stream<Path> files = Files.walk(directory)) {
      long total = 0;
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        total += Files.size(file);
      }
      return total;
    }
  }
}
