package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar check} against copies of one database, each damaged in one way: every damage is
 * reported on a line naming the file (and the offset where there is one), with exit code 1; the
 * intact copy passes with exit code 0. The copy is taken while the database is open, so its log
 * still holds entries.
 */
class CheckCommandTest {

  @TempDir Path temporary;
  private Path live;
  private Path copy;

  @BeforeEach
  void createDatabaseAndCopyIt() throws IOException {
    live = temporary.resolve("live");
    copy = temporary.resolve("copy");
    try (Cellar cellar = Cellar.open(live, config())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 200; i++) {
          table.put(
              new Put(bytes("row" + round + "-" + i))
                  .addColumn(bytes("f"), bytes("q"), bytes("value " + i)));
        }
        if (round < 2) {
          cellar.admin().flush("t");
        }
      }
      copyTree(live, copy);
    }
  }

  private static CellarConfig config() {
    return CellarConfig.defaults().with("hfile.block.cache.memory.size", "4m");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : paths.toList()) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target);
        }
      }
    }
  }

  private List<Path> hfiles() throws IOException {
    try (Stream<Path> paths = Files.list(copy.resolve("tables/t/f"))) {
      return paths.filter(Files::isRegularFile).sorted().toList();
    }
  }

  private Path lastSegment() throws IOException {
    try (Stream<Path> paths = Files.list(copy.resolve("wal"))) {
      return paths
          .filter(path -> path.getFileName().toString().endsWith(".log"))
          .sorted()
          .reduce((first, second) -> second)
          .orElseThrow();
    }
  }

  private static void flipByte(Path file, long offset) throws IOException {
    byte[] content = Files.readAllBytes(file);
    content[(int) offset] ^= 0x5A;
    Files.write(file, content);
  }

  private CliRun checkFailing() {
    CliRun run = CliRun.of("check", copy.toString());
    assertEquals(1, run.exit(), run.toString());
    return run;
  }

  /** The one problem line naming {@code file}. */
  private static String lineNaming(CliRun run, Path file) {
    List<String> lines =
        run.out().lines().filter(line -> line.startsWith("PROBLEM: " + file)).toList();
    assertEquals(1, lines.size(), run.toString());
    return lines.getFirst();
  }

  @Test
  void anIntactCopyPasses() throws IOException {
    CliRun run = CliRun.of("check", copy.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().startsWith("OK: " + copy + ": 1 table(s)"), run.toString());
    assertTrue(run.out().contains(hfiles().size() + " HFile(s) with 400 cell(s)"), run.toString());
    assertTrue(run.out().contains("with 600 entries; lock free"), run.toString());
  }

  @Test
  void aFlippedByteInAnHFileIsReportedWithItsOffset() throws IOException {
    Path file = hfiles().getFirst();
    flipByte(file, 100);
    String line = lineNaming(checkFailing(), file);
    assertTrue(line.matches(".* at offset \\d+: .*"), line);
  }

  @Test
  void aTornManifestRecordIsReported() throws IOException {
    Path manifest = copy.resolve("tables/t/MANIFEST");
    long size = Files.size(manifest);
    try (var channel = Files.newByteChannel(manifest, StandardOpenOption.WRITE)) {
      channel.truncate(size - 3);
    }
    String line = lineNaming(checkFailing(), manifest);
    assertTrue(line.matches(".* at offset \\d+: torn last record .*next open leaves out"), line);
  }

  @Test
  void aDamagedManifestRecordBeforeTheLastIsReportedAtItsOffset() throws IOException {
    Path manifest = copy.resolve("tables/t/MANIFEST");
    flipByte(manifest, 8 + 8 + 1);
    CliRun run = checkFailing();
    String line = lineNaming(run, manifest);
    assertTrue(line.contains(" at offset 8: damaged record (record checksum mismatch)"), line);
    assertEquals(1, run.out().lines().filter(l -> l.startsWith("PROBLEM")).count(), run.out());
  }

  @Test
  void aMissingListedFileIsReported() throws IOException {
    Path file = hfiles().getLast();
    Files.delete(file);
    String line = lineNaming(checkFailing(), file);
    assertTrue(
        line.contains("but missing (the next open refuses the table; 'cellar repair'"), line);
  }

  @Test
  void aStrayFileIsReported() throws IOException {
    Path stray = copy.resolve("tables/t/f/0123456789abcdef0123456789abcdef");
    Files.write(stray, bytes("not an hfile"));
    String line = lineNaming(checkFailing(), stray);
    assertTrue(
        line.contains("no interrupted flush, compaction or bulk load accounts for it")
            && line.contains("the next open refuses the table"),
        line);
  }

  @Test
  void aTableDirectoryWithoutItsDescriptorIsReported() throws IOException {
    Files.delete(copy.resolve("tables/t/.tabledesc"));
    assertTrue(lineNaming(checkFailing(), copy.resolve("tables/t")).contains("without .tabledesc"));
  }

  @Test
  void aCorruptLogEntryIsReportedWithItsOffset() throws IOException {
    Path segment = lastSegment();
    flipByte(segment, Files.size(segment) - 6);
    String line = lineNaming(checkFailing(), segment);
    assertTrue(line.contains("entry CRC32C"), line);
    assertTrue(line.matches(".* at offset \\d+: .*"), line);
  }

  @Test
  void anOpenDatabaseIsReportedAsHeld() throws IOException {
    try (Cellar cellar = Cellar.open(live, config())) {
      CliRun run = CliRun.of("check", live.toString());
      assertEquals(1, run.exit(), "in use: " + run);
      String line = lineNaming(run, live.resolve("LOCK"));
      assertTrue(line.contains("held by this process (pid " + ProcessHandle.current().pid()), line);
    }
    CliRun closed = CliRun.of("check", live.toString());
    assertEquals(0, closed.exit(), closed.toString());
    assertFalse(closed.out().contains("PROBLEM"), closed.toString());
  }

  @Test
  void aLogElsewhereIsCheckedWhereWalDirSays() throws IOException {
    Path database = temporary.resolve("split");
    Path logRoot = temporary.resolve("logs");
    try (Cellar cellar =
        Cellar.open(database, config().with(CellarConfig.WAL_DIR, logRoot.toString()))) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      for (int i = 0; i < 50; i++) {
        cellar
            .table("t")
            .put(new Put(bytes("row" + i)).addColumn(bytes("f"), bytes("q"), bytes("value " + i)));
      }
      CliRun withLog = CliRun.of("check", database.toString(), "--wal-dir", logRoot.toString());
      assertTrue(
          withLog.out().contains("1 log segment(s) with 50 entries; lock held by"),
          withLog.toString());
      CliRun withoutLog = CliRun.of("check", database.toString());
      assertTrue(withoutLog.out().contains("0 log segment(s)"), withoutLog.toString());
    }
  }
}
