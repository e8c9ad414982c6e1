package dev.cellar.arch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Enforces the package layers of cellar-core: a package imports only from packages of a lower
 * layer. The layers, low to high: {@code config}, {@code metrics} and the schema's settings in
 * {@code schema}; {@code memory}; {@code io} and {@code cell}; the cell searches of the read path
 * in {@code cell.search}; {@code cache}, {@code hfile.encoding} and {@code hfile.bloom}; {@code
 * hfile} and {@code cache.bucket}; {@code cache.tiered}, {@code store.wal}, {@code store.memstore}
 * and {@code filter}; {@code store}; the metric sources and JMX in {@code observe}; the info server
 * in {@code observe.http}, and in {@code spi} what Cellar's other modules reach the API's internals
 * through (the engine's parts, metric publishing included); the public API in {@code dev.cellar}. A
 * package missing from the table fails the test, so a new package must be placed in a layer on
 * purpose.
 *
 * <p>Warning: do not weaken a rule to make a change compile. An upward import means the code is in
 * the wrong layer; move it down or pass what it needs in from above.
 */
class PackageLayeringTest {

  private static final Map<String, Integer> LAYERS =
      Map.ofEntries(
          Map.entry("dev.cellar.config", 0),
          Map.entry("dev.cellar.schema", 0),
          Map.entry("dev.cellar.metrics", 0),
          Map.entry("dev.cellar.memory", 1),
          Map.entry("dev.cellar.io", 2),
          Map.entry("dev.cellar.cell", 2),
          Map.entry("dev.cellar.cell.search", 3),
          Map.entry("dev.cellar.row", 3),
          Map.entry("dev.cellar.cache", 4),
          Map.entry("dev.cellar.cache.bucket", 5),
          Map.entry("dev.cellar.cache.tiered", 6),
          Map.entry("dev.cellar.store.wal", 6),
          Map.entry("dev.cellar.store.memstore", 6),
          Map.entry("dev.cellar.filter", 6),
          Map.entry("dev.cellar.hfile.encoding", 4),
          Map.entry("dev.cellar.hfile.bloom", 4),
          Map.entry("dev.cellar.hfile", 5),
          Map.entry("dev.cellar.store", 7),
          Map.entry("dev.cellar.observe", 8),
          Map.entry("dev.cellar.spi", 9),
          Map.entry("dev.cellar.observe.http", 9),
          Map.entry("dev.cellar", 10));

  private static final Pattern PACKAGE =
      Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
  private static final Pattern IMPORT =
      Pattern.compile(
          "^import\\s+(?:static\\s+)?(dev\\.cellar(?:\\.[a-z]\\w*)*)\\.[A-Z]", Pattern.MULTILINE);

  @Test
  void everyImportPointsDown() throws IOException {
    Path sources = Path.of("src/main/java");
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        String text = Files.readString(file);
        Matcher packageMatch = PACKAGE.matcher(text);
        if (!packageMatch.find()) {
          continue;
        }
        String from = packageMatch.group(1);
        Integer fromLayer = LAYERS.get(from);
        if (fromLayer == null) {
          violations.add(
              file + ": package " + from + " has no layer in " + getClass().getSimpleName());
          continue;
        }
        Matcher imports = IMPORT.matcher(text);
        while (imports.find()) {
          String to = imports.group(1);
          Integer toLayer = LAYERS.get(to);
          if (to.equals(from)) {
            continue;
          }
          if (toLayer == null || toLayer >= fromLayer) {
            violations.add(
                file
                    + ": "
                    + from
                    + " (layer "
                    + fromLayer
                    + ") imports "
                    + to
                    + " (layer "
                    + toLayer
                    + ")");
          }
        }
      }
    }
    assertTrue(violations.isEmpty(), String.join("\n", violations));
  }
}
