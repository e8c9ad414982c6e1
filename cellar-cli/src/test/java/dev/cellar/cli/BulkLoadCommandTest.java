package dev.cellar.cli;

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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar export} and {@code cellar bulkload} from the command line: a table exported with
 * split keys and loaded into another database holds the same rows; bad input ends with one line
 * naming the file, exit code 1 and no stack trace.
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
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f"),
          ColumnFamilyDescriptor.of("g", Map.of("COMPRESSION", "GZ"))));
      Table table = cellar.table("t");
      for (int i = 0; i < 300; i++) {
        table.put(new Put(bytes(String.format("row%03d", i)))
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
    CliRun export = CliRun.of("export", "--dir", source.toString(), "--table", "t", "--out",
        out.toString(), "--split-keys", "@" + keys);
    assertEquals(0, export.exit(), export::toString);
    assertTrue(export.out().contains("2 families, 6 files, 600 cells"), export::toString);
    assertTrue(export.err().contains("family f: 300 cells in 3 file(s)"), export::toString);
    try (Stream<Path> files = Files.list(out.resolve("g"))) {
      assertEquals(3, files.count());
    }

    Path target = temporary.resolve("target");
    CliRun load = CliRun.of("bulkload", "--dir", target.toString(), "--table", "copy",
        out.toString());
    assertEquals(0, load.exit(), load::toString);
    assertTrue(load.out().contains("loaded 600 cells in 6 files"), load::toString);
    assertTrue(load.out().contains("(created)"), load::toString);
    assertEquals(300, rows(target, "copy"));
    assertTrue(Files.exists(out.resolve("f")), "copied by default");
  }

  @Test
  void badInputIsOneLineAndExitCodeOne() throws IOException {
    Path source = sourceDatabase();
    Path notHFile = temporary.resolve("bulk/f/0123");
    Files.createDirectories(notHFile.getParent());
    Files.writeString(notHFile, "plain text");
    for (List<String> args : List.of(
        List.of("bulkload", "--dir", source.toString(), "--table", "t",
            temporary.resolve("bulk").toString()),
        List.of("bulkload", "--dir", source.toString(), "--table", "t",
            temporary.resolve("nothing").toString()),
        List.of("export", "--dir", source.toString(), "--table", "missing", "--out",
            temporary.resolve("x").toString()),
        List.of("export", "--dir", source.toString(), "--table", "t", "--out",
            temporary.resolve("bulk").toString()),
        List.of("export", "--dir", source.toString(), "--table", "t", "--out",
            temporary.resolve("y").toString(), "--split-keys", "a\\x4"))) {
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(1, run.exit(), run::toString);
      String[] lines = run.err().strip().split("\n");
      String last = lines[lines.length - 1];
      assertTrue(last.startsWith("cellar " + args.getFirst() + ": "), run::toString);
      assertFalse(run.err().contains("\tat "), run::toString);
    }
    assertEquals(300, rows(source, "t"));
  }
}
