package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.hfile.CorruptHFileException;
import dev.cellar.hfile.HFileReader;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a user gets on HDFS from a database that is fine, one that is missing, an unreachable
 * NameNode, a missing file, a file that is not an HFile and a log cut short: a clean check, or one
 * line naming what is wrong and the full URI of where ({@code hdfs://host:port/path}, never a bare
 * path), and nothing already stored lost.
 */
class HdfsBadInputTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void put(Cellar cellar, int from, int to) throws IOException {
    for (int i = from; i < to; i++) {
      cellar
          .table("t")
          .put(
              new Put(bytes(String.format("row-%04d", i)))
                  .addColumn(bytes("f"), bytes("q"), bytes("value-" + i)));
    }
  }

  private static int rows(Cellar cellar) throws IOException {
    int rows = 0;
    try (ResultScanner scanner = cellar.table("t").scanner(new Scan())) {
      for (Result result : scanner) {
        try (result) {
          assertArrayEquals(bytes("value-" + rows), result.getValue(bytes("f"), bytes("q")));
          rows++;
        }
      }
    }
    return rows;
  }

  @Test
  void aDatabaseOnHdfsChecksCleanAndAMissingOneIsOneLine() throws Exception {
    String location = hdfs.newDirectory("check");
    try (Cellar cellar = Cellar.open(location, hdfs.config())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      put(cellar, 0, 50);
      cellar.admin().flush("t");
      put(cellar, 50, 60);
    }
    DatabaseCheck.Report report = DatabaseCheck.check(location, hdfs.config());
    assertEquals(List.of(), report.problems());
    assertEquals(1, report.tables());
    assertTrue(report.hfiles() >= 1, report.toString());
    assertTrue(report.lockHolder().isEmpty(), report.toString());
    IOException missing =
        assertThrows(
            IOException.class, () -> DatabaseCheck.check(location + "/missing", hdfs.config()));
    assertEquals(location + "/missing is not a directory", missing.getMessage());
    try (StorageLocation resolved = StorageLocation.resolve(location, hdfs.config().settings())) {
      resolved
          .storage()
          .createDirectories(
              resolved.directory().resolveSibling(resolved.directory().getFileName() + "-empty"));
      try (AppendOnlyFile stray =
          resolved.storage().create(resolved.directory().resolve("tables/t/stray"))) {
        stray.sync();
      }
    }
    IOException empty =
        assertThrows(
            IOException.class, () -> DatabaseCheck.check(location + "-empty", hdfs.config()));
    assertEquals(
        location + "-empty is not a Cellar database (it has no tables/ directory)",
        empty.getMessage());
    DatabaseCheck.Report damaged = DatabaseCheck.check(location, hdfs.config());
    assertEquals(
        List.of(
            location
                + "/tables/t/stray: not part of the table (a descriptor or"
                + " manifest rewrite a crash interrupted?)"),
        damaged.problems());
  }

  @Test
  void aFileThatIsNotAnHFileIsOneLineNamingIt() throws Exception {
    String location = hdfs.newDirectory("not-hfile");
    try (StorageLocation resolved = StorageLocation.resolve(location, hdfs.config().settings());
        BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
      Storage storage = resolved.storage();
      Path file = resolved.directory().resolve("notes.txt");
      storage.createDirectories(resolved.directory());
      try (AppendOnlyFile out = storage.create(file)) {
        byte[] text = bytes("not an HFile at all, but long enough to hold a trailer. ".repeat(40));
        out.append(text, 0, text.length);
        out.sync();
      }
      CorruptHFileException e =
          assertThrows(
              CorruptHFileException.class,
              () -> HFileReader.open(storage, file, allocator, UnaryOperator.identity()).close());
      assertTrue(e.getMessage().startsWith(location + "/notes.txt at offset "), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());

      IOException missing =
          assertThrows(
              IOException.class,
              () ->
                  HFileReader.open(
                          storage,
                          resolved.directory().resolve("missing"),
                          allocator,
                          UnaryOperator.identity())
                      .close());
      assertEquals(location + "/missing: no such file", missing.getMessage());
    }
  }

  @Test
  void aLogCutShortOnHdfsLosesOnlyTheCutEntriesAndNothingFlushed() throws Exception {
    String location = hdfs.newDirectory("cut-log");
    Cellar cellar = Cellar.open(location, hdfs.config());
    cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    put(cellar, 0, 40);
    cellar.admin().flush("t");
    put(cellar, 40, 60);
    cellar.abort();
    try (StorageLocation resolved = StorageLocation.resolve(location, hdfs.config().settings())) {
      Storage storage = resolved.storage();
      List<Path> segments =
          storage.list(resolved.directory().resolve("wal")).stream()
              .filter(path -> !path.getFileName().toString().equals("LOCK"))
              .toList();
      Path last = segments.getLast();
      storage.recoverWriter(last);
      storage.truncate(last, storage.size(last) - 10);
    }
    try (Cellar reopened = Cellar.open(location, hdfs.config())) {
      assertEquals(59, rows(reopened), "only the entry the cut tore is gone");
    }
  }

  @Test
  void anUnreachableNameNodeIsOneLineNamingTheDatabasesUri() {
    IOException e =
        assertThrows(
            IOException.class, () -> Cellar.open("hdfs://127.0.0.1:1/cellar/db", hdfs.config()));
    assertTrue(
        e.getMessage()
            .startsWith(
                "hdfs://127.0.0.1:1/cellar/db: cannot reach the file"
                    + " system at hdfs://127.0.0.1:1/: "),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void aDamagedLogSegmentBeforeTheLastFailsTheOpenInOneLineNamingItsUri() throws Exception {
    String location = hdfs.newDirectory("damaged-log");
    Cellar cellar = Cellar.open(location, hdfs.config());
    cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    put(cellar, 0, 30);
    cellar.wal().roll();
    put(cellar, 30, 40);
    cellar.abort();
    Path first;
    try (StorageLocation resolved = StorageLocation.resolve(location, hdfs.config().settings())) {
      Storage storage = resolved.storage();
      first =
          storage.list(resolved.directory().resolve("wal")).stream()
              .filter(path -> path.getFileName().toString().startsWith("wal-"))
              .findFirst()
              .orElseThrow();
      storage.recoverWriter(first);
      storage.truncate(first, storage.size(first) - 10);
    }
    IOException e = assertThrows(IOException.class, () -> Cellar.open(location, hdfs.config()));
    assertTrue(
        e.getMessage()
            .startsWith("WAL segment " + location + "/wal/" + first.getFileName() + " at offset "),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }
}
