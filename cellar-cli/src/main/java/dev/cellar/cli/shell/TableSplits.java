package dev.cellar.cli.shell;

import dev.cellar.SplitAlgorithm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The table options of HBase's shell {@code create}: {@code SPLITS => ['a', 'b']}, {@code
 * SPLITS_FILE => 'file'} (one key per line, surrounding blanks dropped, escapes as the shell reads
 * them) and {@code NUMREGIONS => n} with {@code SPLITALGO => 'HexStringSplit'} (or {@code
 * DecimalStringSplit}, {@code UniformSplit}), made into split keys as HBase's shell makes them.
 * Stateless.
 */
final class TableSplits {

  private static final Set<String> OPTIONS =
      Set.of("SPLITS", "SPLITS_FILE", "NUMREGIONS", "SPLITALGO");

  private TableSplits() {}

  /** Whether {@code spec} is a hash of table options rather than a family's. */
  static boolean isTableOptions(Map<?, ?> spec) {
    return !spec.containsKey("NAME")
        && !spec.isEmpty()
        && spec.keySet().stream().allMatch(key -> OPTIONS.contains(String.valueOf(key)));
  }

  /**
   * The split keys {@code spec} gives.
   *
   * @throws ShellException naming the option if the options are incomplete, clash or do not read
   */
  static byte[][] keys(Map<?, ?> spec) {
    int given =
        (spec.containsKey("SPLITS") ? 1 : 0)
            + (spec.containsKey("SPLITS_FILE") ? 1 : 0)
            + (spec.containsKey("NUMREGIONS") ? 1 : 0);
    if (given != 1) {
      throw new ShellException(
          "create: give one of SPLITS, SPLITS_FILE or NUMREGIONS (with SPLITALGO), not " + given);
    }
    if (spec.containsKey("SPLITS")) {
      if (!(spec.get("SPLITS") instanceof List<?> keys)) {
        throw new ShellException("create: SPLITS takes a list of keys, e.g. SPLITS => ['a', 'b']");
      }
      List<byte[]> split = new ArrayList<>();
      for (Object key : keys) {
        split.add(ShellBytes.of(String.valueOf(key)));
      }
      return split.toArray(new byte[0][]);
    }
    if (spec.containsKey("SPLITS_FILE")) {
      Path file = Path.of(String.valueOf(spec.get("SPLITS_FILE")));
      List<byte[]> split = new ArrayList<>();
      try {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            split.add(ShellBytes.of(line.strip()));
          }
        }
      } catch (IOException e) {
        throw new ShellException("create: SPLITS_FILE " + file + ": " + e.getMessage());
      }
      return split.toArray(new byte[0][]);
    }
    if (!spec.containsKey("SPLITALGO")) {
      throw new ShellException(
          "create: NUMREGIONS needs SPLITALGO => 'HexStringSplit', 'DecimalStringSplit' or"
              + " 'UniformSplit'");
    }
    int regions;
    try {
      regions = Integer.parseInt(String.valueOf(spec.get("NUMREGIONS")).strip());
    } catch (NumberFormatException e) {
      throw new ShellException(
          "create: NUMREGIONS must be a number, was " + spec.get("NUMREGIONS"));
    }
    try {
      return SplitAlgorithm.named(String.valueOf(spec.get("SPLITALGO"))).split(regions);
    } catch (IllegalArgumentException e) {
      throw new ShellException("create: " + e.getMessage());
    }
  }
}
