package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hfile.HFileReader;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alters through the embedded {@link Admin}: a family added takes writes and survives a reopen; a
 * family's attributes changed apply to reads at once and to files written afterwards, while the
 * files written before stay readable; a family deleted is gone (writes to it refused, its data not
 * back after a reopen, after replaying the log, or when a family of that name is added again), yet
 * a scanner opened before keeps reading it and its files go only once that scanner closes; and the
 * mistakes (an existing family added, a missing one modified or deleted, the last one deleted) are
 * refused with a message naming them.
 */
class AlterTableTest {

  private static final byte[] QUALIFIER = bytes("q");

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static CellarConfig config() {
    return CellarConfig.defaults().with("hfile.block.cache.memory.size", "4m");
  }

  private static void put(Table table, String family, String row, String value) throws IOException {
    table.put(new Put(bytes(row)).addColumn(bytes(family), QUALIFIER, bytes(value)));
  }

  private static String value(Table table, String family, String row) throws IOException {
    try (Result result = table.get(new Get(bytes(row)))) {
      byte[] value = result.getValue(bytes(family), QUALIFIER);
      return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
  }

  private static Cellar open(Path directory) throws IOException {
    return Cellar.open(directory, config());
  }

  @Test
  void anAddedFamilyTakesWritesAndSurvivesAReopen() throws IOException {
    try (Cellar cellar = open(directory)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("a")));
      Table table = cellar.table("t");
      put(table, "a", "r1", "a1");
      cellar.admin().addFamily("t", ColumnFamilyDescriptor.of("b", Map.of("VERSIONS", "3")));
      assertEquals(List.of("a", "b"), names(cellar.admin().describe("t")));
      put(table, "b", "r1", "b1");
      assertEquals("b1", value(table, "b", "r1"));
      assertEquals("a1", value(table, "a", "r1"));
      cellar.admin().flush("t");
      put(table, "b", "r2", "b2");
    }
    try (Cellar cellar = open(directory)) {
      assertEquals(3, cellar.admin().describe("t").family("b").maxVersions());
      Table table = cellar.table("t");
      assertEquals("b1", value(table, "b", "r1"));
      assertEquals("b2", value(table, "b", "r2"), "replayed from the log after a reopen");
      assertEquals("a1", value(table, "a", "r1"));
    }
  }

  @Test
  void aModifiedFamilyReadsWithItsNewVersionsAndWritesNewFilesWithItsNewFormat()
      throws IOException {
    try (Cellar cellar = open(directory)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("a")));
      Table table = cellar.table("t");
      for (int version = 1; version <= 3; version++) {
        table.put(
            new Put(bytes("r")).addColumn(bytes("a"), QUALIFIER, version, bytes("v" + version)));
      }
      put(table, "a", "old", "x");
      assertEquals(1, versions(table, "r"));
      cellar.admin().flush("t");
      cellar
          .admin()
          .modifyFamily(
              "t",
              ColumnFamilyDescriptor.of(
                  "a",
                  Map.of(
                      "VERSIONS",
                      "5",
                      "COMPRESSION",
                      "GZ",
                      "DATA_BLOCK_ENCODING",
                      "FAST_DIFF",
                      "BLOCKSIZE",
                      "4096")));
      put(table, "a", "new", "y");
      cellar.admin().flush("t");
      Path newest = store(cellar).filePaths().getLast();
      try (HFileReader reader = HFileReader.open(newest, cellar.allocator())) {
        assertEquals(Compression.GZ, reader.trailer().compression());
        assertEquals(DataBlockEncoding.FAST_DIFF, reader.encoding());
      }
      Path oldest = store(cellar).filePaths().getFirst();
      try (HFileReader reader = HFileReader.open(oldest, cellar.allocator())) {
        assertEquals(Compression.NONE, reader.trailer().compression(), "an earlier file");
      }
      assertEquals("x", value(table, "a", "old"));
      assertEquals("y", value(table, "a", "new"));
    }
    try (Cellar cellar = open(directory)) {
      ColumnFamilyDescriptor family = cellar.admin().describe("t").family("a");
      assertEquals(5, family.maxVersions());
      assertEquals(dev.cellar.schema.Compression.GZ, family.compression());
      assertEquals("x", value(cellar.table("t"), "a", "old"));
      cellar.admin().majorCompact("t");
      assertEquals(1, store(cellar).fileCount());
      assertEquals("y", value(cellar.table("t"), "a", "new"));
    }
  }

  @Test
  void raisingVersionsShowsTheVersionsStillHeld() throws IOException {
    try (Cellar cellar = open(directory)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("a")));
      Table table = cellar.table("t");
      for (int version = 1; version <= 3; version++) {
        table.put(
            new Put(bytes("r")).addColumn(bytes("a"), QUALIFIER, version, bytes("v" + version)));
      }
      assertEquals(1, versions(table, "r"));
      RowReader reader = table.rowReader();
      Get get = new Get(bytes("r")).readVersions(10);
      assertEquals(1, reader.getView(get).size());
      cellar.admin().modifyFamily("t", ColumnFamilyDescriptor.of("a", Map.of("VERSIONS", "5")));
      assertEquals(3, versions(table, "r"), "the MemStore holds every version");
      assertEquals(3, reader.getView(get).size(), "a reader made before the alter plans again");
      reader.close();
      cellar.admin().modifyFamily("t", ColumnFamilyDescriptor.of("a", Map.of("VERSIONS", "2")));
      assertEquals(2, versions(table, "r"));
    }
  }

  private static int versions(Table table, String row) throws IOException {
    try (Result result = table.get(new Get(bytes(row)).readVersions(10))) {
      return result.size();
    }
  }

  private static Store store(Cellar cellar) {
    return ((CellarTable) cellar.table("t")).regions().getFirst().stores().getFirst();
  }

  @Test
  void aDeletedFamilyIsGoneButAScannerOpenedBeforeKeepsReadingIt() throws IOException {
    try (Cellar cellar = open(directory)) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
      Table table = cellar.table("t");
      for (int i = 0; i < 10; i++) {
        put(table, "a", "r" + i, "a" + i);
        put(table, "b", "r" + i, "b" + i);
      }
      cellar.admin().flush("t");
      put(table, "b", "r10", "b10");
      Path familyDirectory = directory.resolve("tables").resolve("t").resolve("b");
      List<Path> bFiles = ((CellarTable) table).regions().getFirst().stores().get(1).filePaths();
      assertEquals(1, bFiles.size());
      List<String> seen = new ArrayList<>();
      try (ResultScanner scanner = table.scanner(new Scan())) {
        cellar.admin().deleteFamily("t", "b");
        assertEquals(List.of("a"), names(cellar.admin().describe("t")));
        assertTrue(Files.exists(bFiles.getFirst()), "a scanner still reads the file");
        for (Result result : scanner) {
          try (result) {
            byte[] b = result.getValue(bytes("b"), QUALIFIER);
            seen.add(b == null ? "-" : new String(b, StandardCharsets.UTF_8));
          }
        }
      }
      assertEquals(
          List.of("b0", "b1", "b10", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9"),
          seen,
          "the scanner's view is the one it opened with");
      assertFalse(Files.exists(bFiles.getFirst()), "deleted once the scanner closed");
      assertNull(value(table, "b", "r1"));
      assertEquals("a1", value(table, "a", "r1"));
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> put(table, "b", "r1", "again"));
      assertTrue(refused.getMessage().contains("has no family b"), refused.getMessage());
      assertTrue(Files.isDirectory(familyDirectory), "kept while a reader held a file");
      cellar.admin().addFamily("t", ColumnFamilyDescriptor.of("x"));
      cellar.admin().deleteFamily("t", "x");
      assertFalse(
          Files.exists(familyDirectory.resolveSibling("x")),
          "a family nobody reads loses its directory at once");
    }
    try (Cellar cellar = open(directory)) {
      assertEquals(List.of("a"), names(cellar.admin().describe("t")));
      assertFalse(
          Files.exists(directory.resolve("tables").resolve("t").resolve("b")),
          "the open deletes the deleted family's directory");
      cellar.admin().addFamily("t", ColumnFamilyDescriptor.of("b"));
      Table table = cellar.table("t");
      assertNull(value(table, "b", "r10"), "a family added again starts empty");
      try (ResultScanner scanner = table.scanner(new Scan().addFamily(bytes("b")))) {
        assertNull(scanner.next());
      }
    }
  }

  @Test
  void aFamilyDeletedAndAddedAgainDoesNotReplayTheOldFamilysLogEntries() throws IOException {
    Cellar cellar = open(directory);
    cellar
        .admin()
        .createTable(
            TableDescriptor.of(
                "t", ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
    Table table = cellar.table("t");
    put(table, "a", "r1", "a1");
    put(table, "b", "r1", "old");
    cellar.admin().deleteFamily("t", "b");
    cellar.admin().addFamily("t", ColumnFamilyDescriptor.of("b"));
    put(table, "b", "r2", "new");
    cellar.abort();
    try (Cellar reopened = open(directory)) {
      Table again = reopened.table("t");
      assertNull(value(again, "b", "r1"), "the deleted family's edit is not replayed");
      assertEquals("new", value(again, "b", "r2"));
      assertEquals("a1", value(again, "a", "r1"));
    }
  }

  @Test
  void modifyTableAddsDeletesAndModifiesFamilies() throws IOException {
    try (Cellar cellar = open(directory)) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
      Table table = cellar.table("t");
      put(table, "a", "r", "a");
      put(table, "b", "r", "b");
      cellar
          .admin()
          .modifyTable(
              TableDescriptor.of(
                  "t",
                  ColumnFamilyDescriptor.of("a", Map.of("TTL", "86400")),
                  ColumnFamilyDescriptor.of("c")));
      TableDescriptor described = cellar.admin().describe("t");
      assertEquals(List.of("a", "c"), names(described));
      assertEquals(86400, described.family("a").ttlSeconds());
      put(table, "c", "r", "c");
      try (Result result = table.get(new Get(bytes("r")))) {
        assertArrayEquals(bytes("a"), result.getValue(bytes("a"), QUALIFIER));
        assertArrayEquals(bytes("c"), result.getValue(bytes("c"), QUALIFIER));
        assertEquals(2, result.size());
      }
      table.delete(new Delete(bytes("r")));
      try (Result result = table.get(new Get(bytes("r")))) {
        assertTrue(result.isEmpty(), "a row delete covers the families the table has now");
      }
    }
  }

  @Test
  void mistakesAreRefusedNamingWhatWasWrong() throws IOException {
    try (Cellar cellar = open(directory)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("a")));
      Admin admin = cellar.admin();
      assertMessage(
          "has family a already", () -> admin.addFamily("t", ColumnFamilyDescriptor.of("a")));
      assertMessage(
          "has no family z", () -> admin.modifyFamily("t", ColumnFamilyDescriptor.of("z")));
      assertMessage("has no family z", () -> admin.deleteFamily("t", "z"));
      assertMessage("only family of table t", () -> admin.deleteFamily("t", "a"));
      assertThrows(
          TableNotFoundException.class,
          () -> admin.addFamily("nope", ColumnFamilyDescriptor.of("a")));
      assertEquals(List.of("a"), names(admin.describe("t")));
    }
  }

  private interface Action {
    void run() throws IOException;
  }

  private static void assertMessage(String expected, Action action) {
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, action::run);
    assertTrue(thrown.getMessage().contains(expected), thrown.getMessage());
  }

  private static List<String> names(TableDescriptor descriptor) {
    return descriptor.families().stream().map(ColumnFamilyDescriptor::name).toList();
  }
}
