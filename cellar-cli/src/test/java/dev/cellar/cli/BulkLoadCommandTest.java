package dev.cellar.cli;

import static dev.cellar.BulkFixtures.dump;
import static dev.cellar.BulkFixtures.flipBitInFirstBlock;
import static dev.cellar.BulkFixtures.tableFiles;
import static dev.cellar.BulkFixtures.writeHFile;
import static dev.cellar.BulkFixtures.writeOutOfOrderHFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar export} and {@code cellar bulkload} from the command line: a table exported with
 * split keys and loaded into another database holds the same rows; bad input ends with one line
 * naming the file and what is wrong, exit code 1 and no stack trace, and a refused load leaves the
 * table's cells and files exactly as they were (each of the issue's bad inputs, into an existing
 * and a missing table).
 */
class BulkLoadCommandTest {

  @TempDir Path temporary;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static long rows(Path database, String table) throws IOException {
    long rows = 0;
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults());
        ResultScanner scanner = cellar.table(table).scanner(new Scan())) {
      for (Result result = scanner.next(); result != null; result = scanner.next()) {
        result.close();
        rows++;
      }
    }
    return rows;
  }

  private Path sourceDatabase() throws IOException {
    Path source = temporary.resolve("source");
    try (Cellar cellar = Cellar.open(source, CellarConfig.defaults())) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t",
                  ColumnFamilyDescriptor.of("f"),
                  ColumnFamilyDescriptor.of("g", Map.of("COMPRESSION", "GZ"))));
      Table table = cellar.table("t");
      for (int i = 0; i < 300; i++) {
        table.put(
            new Put(bytes(String.format("row%03d", i)))
                .addColumn(bytes("f"), bytes("q"), bytes("f" + i))
                .addColumn(bytes("g"), bytes("q"), bytes("g" + i)));
      }
    }
    return source;
  }

  @Test
  void exportThenBulkloadMovesTheTable() throws IOException {
    Path source = sourceDatabase();
    Path keys = Files.writeString(temporary.resolve("keys"), "row100\n\nrow2\\x30\\x30\n");
    Path out = temporary.resolve("export");
    CliRun export =
        CliRun.of(
            "export",
            "--dir",
            source.toString(),
            "--table",
            "t",
            "--out",
            out.toString(),
            "--split-keys",
            "@" + keys);
    assertEquals(0, export.exit(), export::toString);
    assertTrue(export.out().contains("2 families, 6 files, 600 cells"), export::toString);
    assertTrue(export.err().contains("family f: 300 cells in 3 file(s)"), export::toString);
    try (Stream<Path> files = Files.list(out.resolve("g"))) {
      assertEquals(3, files.count());
    }

    Path target = temporary.resolve("target");
    CliRun load =
        CliRun.of("bulkload", "--dir", target.toString(), "--table", "copy", out.toString());
    assertEquals(0, load.exit(), load::toString);
    assertTrue(load.out().contains("loaded 600 cells in 6 files"), load::toString);
    assertTrue(load.out().contains("(created)"), load::toString);
    assertEquals(300, rows(target, "copy"));
    assertTrue(Files.exists(out.resolve("f")), "copied by default");
  }

  @Test
  void badExportInputIsOneLineAndExitCodeOne() throws IOException {
    Path source = sourceDatabase();
    Files.createDirectories(temporary.resolve("taken/f"));
    Files.writeString(temporary.resolve("taken/f/0123"), "plain text");
    for (List<String> args :
        List.of(
            List.of(
                "export",
                "--dir",
                source.toString(),
                "--table",
                "missing",
                "--out",
                temporary.resolve("x").toString()),
            List.of(
                "export",
                "--dir",
                source.toString(),
                "--table",
                "t",
                "--out",
                temporary.resolve("taken").toString()))) {
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertOneErrorLine(run, "cellar export: ", "");
    }
    CliRun badKey =
        CliRun.of(
            "export",
            "--dir",
            source.toString(),
            "--table",
            "t",
            "--out",
            temporary.resolve("y").toString(),
            "--split-keys",
            "a\\x4");
    assertEquals(2, badKey.exit(), badKey::toString);
    assertTrue(badKey.err().startsWith("cellar export: --split-keys"), badKey::toString);
    assertEquals(300, rows(source, "t"));
  }

  /** A bad input to {@code cellar bulkload}: its source directory and what its error names. */
  private record BadInput(String source, String expected) {}

  @Test
  void badBulkloadInputIsOneLineExitCodeOneAndTheTableAsItWas() throws IOException {
    Path source = sourceDatabase();
    List<BadInput> inputs = new ArrayList<>();
    Path corrupt = temporary.resolve("corrupt");
    writeHFile(corrupt.resolve("f/good"), "f", "r", 10, "v");
    flipBitInFirstBlock(writeHFile(corrupt.resolve("f/z-bad"), "f", "s", 200, "v"));
    inputs.add(new BadInput(corrupt.toString(), "z-bad: corrupt HFile"));
    Path unknown = temporary.resolve("unknown");
    writeHFile(unknown.resolve("f/good"), "f", "r", 10, "v");
    writeHFile(unknown.resolve("h/1"), "h", "r", 10, "v");
    inputs.add(new BadInput(unknown.toString(), "has no family 'h'"));
    Path empty = temporary.resolve("empty");
    Files.createDirectories(empty.resolve("f"));
    writeHFile(empty.resolve("f/_SUCCESS"), "f", "r", 1, "v");
    inputs.add(new BadInput(empty.toString(), "no HFiles to load"));
    Path order = temporary.resolve("order");
    writeOutOfOrderHFile(order.resolve("f/1"), "f");
    inputs.add(new BadInput(order.toString(), "cell order"));
    Path text = temporary.resolve("text");
    Files.createDirectories(text.resolve("f"));
    Files.writeString(text.resolve("f/0123"), "plain text");
    inputs.add(new BadInput(text.toString(), "0123: not an HFile"));
    inputs.add(new BadInput(temporary.resolve("nothing").toString(), "not a directory"));
    inputs.add(new BadInput("hdfs://127.0.0.1:8020/bulk/t", "not a local directory"));

    List<String> cells;
    TreeMap<String, List<String>> files;
    try (Cellar cellar = Cellar.open(source, CellarConfig.defaults())) {
      cells = dump(cellar.table("t"));
      files = tableFiles(source, "t");
    }
    for (BadInput input : inputs) {
      for (String table :
          input.source().equals(unknown.toString()) ? List.of("t") : List.of("t", "new")) {
        CliRun run =
            CliRun.of(
                "bulkload", "--dir", source.toString(), "--table", table, "--move", input.source());
        assertOneErrorLine(run, "cellar bulkload: ", input.expected());
        try (Cellar cellar = Cellar.open(source, CellarConfig.defaults())) {
          assertEquals(cells, dump(cellar.table("t")), run::toString);
          assertEquals(files, tableFiles(source, "t"), run::toString);
          assertFalse(cellar.admin().tableExists("new"), run::toString);
        }
      }
    }
    assertTrue(Files.exists(corrupt.resolve("f/good")), "a refused move keeps its sources");

    CliRun onHdfs =
        CliRun.of(
            "bulkload", "--dir", "hdfs://127.0.0.1:8020/db", "--table", "t", corrupt.toString());
    assertOneErrorLine(
        onHdfs, "cellar bulkload: --dir hdfs://127.0.0.1:8020/db: ", "not a local directory");
    assertFalse(Files.exists(Path.of("hdfs:")), "no local directory named after the URI");
  }

  /**
   * Exit code 1 and one error line on stderr, its last line, starting with {@code prefix} and
   * holding {@code expected}; no stack trace (progress lines may come before it).
   */
  private static void assertOneErrorLine(CliRun run, String prefix, String expected) {
    assertEquals(1, run.exit(), run::toString);
    List<String> lines = run.err().strip().lines().toList();
    assertEquals(1, lines.stream().filter(line -> line.startsWith(prefix)).count(), run::toString);
    assertTrue(lines.getLast().startsWith(prefix), run::toString);
    assertTrue(lines.getLast().contains(expected), run::toString);
    assertFalse(run.err().contains("\tat "), run::toString);
  }
}
