package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.store.DirectoryHash;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Table names follow HBase's rules, and no name reaches outside {@code tables/} or its namespace's
 * directory: "." and ".." are refused, so dropping ".." deletes nothing. A table directory a crash
 * left without its descriptor is cleared when the database opens, so a table created again under
 * that name starts empty.
 */
class TableNamesTest {

  @TempDir Path directory;

  @Test
  void hbaseNamesAreAccepted() {
    for (String name :
        List.of("t", "usertable", "TestTable", "a_b-c.d", "0", "_x", "ns:t", "my_ns:t.1-x")) {
      assertEquals(name, TableNames.checked(name));
    }
    assertEquals("t", TableNames.checked("default:t"), "the default namespace is implied");
  }

  @Test
  void namesBreakingARuleAreRefusedSayingWhich() {
    assertRefused(".", "starts its qualifier with '.'");
    assertRefused("..", "starts its qualifier with '.'");
    assertRefused(".hidden", "starts its qualifier with '.'");
    assertRefused("-t", "starts its qualifier with '-'");
    assertRefused("ns:..", "starts its qualifier with '.'");
    assertRefused("a/b", "has '/' at 1");
    assertRefused("a\\b", "has '\\' at 1");
    assertRefused("t ", "has ' ' at 1");
    assertRefused("tä", "has 'ä' at 1");
    assertRefused("n-s:t", "namespace 'n-s' has '-' at 1");
    assertRefused(":t", "empty namespace");
    assertRefused("ns:", "empty qualifier");
    assertRefused("a:b:c", "has ':' at 3");
    assertRefused("hbase:meta", "reserved");
    assertRefused("", "required");
    assertRefused(null, "required");
    assertRefused("x".repeat(256), "256 characters long");
  }

  @Test
  void familyNamesThatWouldLeaveTheTableDirectoryAreRefused() {
    for (String name : List.of(".", "..", ".tmp", "a/b", "a\\b", "a:b", "a\tb", "")) {
      assertThrows(IllegalArgumentException.class, () -> ColumnFamilyDescriptor.of(name), name);
    }
    assertEquals("info-1.x", ColumnFamilyDescriptor.of("info-1.x").name());
  }

  private static void assertRefused(String name, String expected) {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> TableDescriptor.of(name, ColumnFamilyDescriptor.of("f")));
    assertTrue(
        refused.getMessage().contains(expected),
        name + ": '" + refused.getMessage() + "' lacks '" + expected + "'");
  }

  @Test
  void everyTableDirectoryIsAChildOfTablesOrOfItsNamespace() throws IOException {
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      Path tables = directory.resolve("tables").normalize();
      assertEquals(tables.resolve("t"), cellar.tableDirectory("t"));
      assertEquals(
          directory.resolve("namespaces").resolve("ns").resolve("t").normalize(),
          cellar.tableDirectory("ns:t"));
      for (String escape :
          List.of("..", ".", "../wal", "a/../..", "/etc", "ns:..", "..:t", "ns:../t", "ns:/etc")) {
        assertThrows(IllegalArgumentException.class, () -> cellar.tableDirectory(escape), escape);
      }
      assertThrows(TableNotFoundException.class, () -> cellar.admin().dropTable(".."));
      assertTrue(Files.isDirectory(directory.resolve("wal")), "dropping '..' deleted nothing");
    }
  }

  @Test
  void aTableInTheDefaultNamespaceIsFoundByEitherName() throws IOException {
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("default:t", ColumnFamilyDescriptor.of("f")));
      assertEquals(List.of("t"), cellar.admin().listTables());
      assertTrue(cellar.admin().tableExists("default:t"));
      assertEquals("t", cellar.table("default:t").name());
      cellar.admin().dropTable("default:t");
      assertFalse(cellar.admin().tableExists("t"));
    }
  }

  @Test
  void whatACreateOrDropLeftIsClearedAtOpenAndADirectoryHoldingDataIsRefused() throws IOException {
    Path created = directory.resolve("tables").resolve("t");
    Files.createDirectories(created.resolve("f"));
    Files.writeString(created.resolve(".tabledesc.tmp"), "name=t");
    Path dropped = directory.resolve("tables").resolve(".dropped-v-12345").resolve("f");
    Files.createDirectories(dropped);
    Files.writeString(dropped.resolve("0123abcd"), "a dropped table's file");
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      assertFalse(Files.exists(created), "a create's leftover is deleted");
      assertFalse(Files.exists(dropped.getParent()), "a drop's leftover is deleted");
      cellar.admin().createTable(TableDescriptor.of("u", ColumnFamilyDescriptor.of("f")));
      cellar.admin().dropTable("u");
      Path stray = directory.resolve("tables").resolve("w").resolve("f");
      Files.createDirectories(stray);
      Files.writeString(stray.resolve("0123abcd"), "data Cellar did not write");
      IOException refused =
          assertThrows(
              IOException.class,
              () ->
                  cellar
                      .admin()
                      .createTable(TableDescriptor.of("w", ColumnFamilyDescriptor.of("f"))));
      assertTrue(refused.getMessage().contains(stray.getParent().toString()), refused.getMessage());
      assertTrue(Files.exists(stray.resolve("0123abcd")), "creating a table deletes no data");
    }
    Map<String, String> before = DirectoryHash.of(directory);
    IOException refused =
        assertThrows(IOException.class, () -> Cellar.open(directory, CellarConfig.defaults()));
    assertTrue(refused.getMessage().contains("cellar repair"), refused.getMessage());
    assertEquals(before, DirectoryHash.of(directory), "a refused open changes nothing");
  }

  /**
   * A table of a namespace lives in {@code namespaces/<namespace>/<qualifier>} and is there again
   * after a reopen, with its rows; a table a database written before namespaces had directories
   * kept as {@code tables/ns:t} is moved there at open, rows and all.
   */
  @Test
  void aNamespacedTableLivesInItsNamespacesDirectoryAndAnOldOneIsMovedThere() throws IOException {
    byte[] row = "r".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] family = "f".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      for (String name : List.of("ns:t", "old:t")) {
        cellar.admin().createTable(TableDescriptor.of(name, ColumnFamilyDescriptor.of("f")));
        cellar.table(name).put(new Put(row).addColumn(family, row, row));
        cellar.admin().flush(name);
      }
    }
    Path namespaces = directory.resolve("namespaces");
    assertTrue(
        Files.isRegularFile(
            namespaces.resolve("ns").resolve("t").resolve(TableDirectory.DESCRIPTOR)));
    Files.move(
        namespaces.resolve("old").resolve("t"), directory.resolve("tables").resolve("old:t"));
    try (Cellar cellar = Cellar.open(directory, CellarConfig.defaults())) {
      assertEquals(List.of("ns:t", "old:t"), cellar.admin().listTables());
      for (String name : List.of("ns:t", "old:t")) {
        try (Result result = cellar.table(name).get(new Get(row))) {
          assertEquals(
              "r", new String(result.value(), java.nio.charset.StandardCharsets.UTF_8), name);
        }
      }
    }
    assertFalse(Files.exists(directory.resolve("tables").resolve("old:t")));
    assertTrue(
        Files.isRegularFile(
            namespaces.resolve("old").resolve("t").resolve(TableDirectory.DESCRIPTOR)));
  }
}
