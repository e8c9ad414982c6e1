package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Namespaces through HBase's own client (2.6.1) against an in-process {@code cellar serve}:
 * created, listed, described, modified and deleted as with HBase, with HBase's errors (a namespace
 * that exists, one that does not, deleting a reserved or a non-empty one); a table in a namespace
 * ({@code ns:t}) reads and writes as any table, its rows equal to what Cellar's engine holds under
 * that name, kept in the namespace's own directory; and all of it is there again after a restart.
 */
class NamespaceInteropTest {

  private static final byte[] F = bytes("f");
  private static final TableName IN_NS = TableName.valueOf("ns:t");
  private static final TableName IN_DEFAULT = TableName.valueOf("t");

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static TableDescriptor table(TableName name) {
    return TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .build();
  }

  @Test
  void namespacesAndTheirTablesBehaveAsInHBaseAndSurviveARestart() throws IOException {
    Path data = dir.resolve("data");
    try (ServedCellar served = ServedCellar.start(data);
        Admin admin = served.connection.getAdmin()) {
      assertEquals(List.of("default", "hbase"), sorted(admin.listNamespaces()));
      admin.createNamespace(NamespaceDescriptor.create("ns").addConfiguration("k", "v").build());
      assertThrows(
          NamespaceExistException.class,
          () -> admin.createNamespace(NamespaceDescriptor.create("ns").build()));
      assertThrows(NamespaceNotFoundException.class, () -> admin.getNamespaceDescriptor("nope"));
      assertThrows(
          NamespaceNotFoundException.class,
          () -> admin.createTable(table(TableName.valueOf("nope:t"))));
      assertThrows(
          IOException.class,
          () -> admin.createNamespace(NamespaceDescriptor.create("bad-name").build()));
      assertEquals(List.of("default", "hbase", "ns"), sorted(admin.listNamespaces()));
      assertEquals("v", admin.getNamespaceDescriptor("ns").getConfigurationValue("k"));
      assertEquals(3, admin.listNamespaceDescriptors().length);

      admin.createTable(table(IN_NS));
      admin.createTable(table(IN_DEFAULT));
      assertTrue(admin.tableExists(IN_NS));
      assertEquals(List.of(IN_NS), Arrays.asList(admin.listTableNamesByNamespace("ns")));
      assertEquals(List.of(IN_DEFAULT), Arrays.asList(admin.listTableNamesByNamespace("default")));
      assertEquals(
          IN_NS, admin.listTableDescriptorsByNamespace(bytes("ns")).getFirst().getTableName());
      assertEquals(java.util.Set.of(IN_DEFAULT, IN_NS), java.util.Set.of(admin.listTableNames()));
      assertEquals(IN_NS, admin.getDescriptor(IN_NS).getTableName());

      try (Table table = served.connection.getTable(IN_NS);
          Table other = served.connection.getTable(IN_DEFAULT)) {
        for (int i = 0; i < 20; i++) {
          table.put(new Put(bytes("r" + i)).addColumn(F, bytes("q"), bytes("ns-" + i)));
        }
        other.put(new Put(bytes("r0")).addColumn(F, bytes("q"), bytes("default")));
        assertArrayEquals(bytes("ns-3"), table.get(new Get(bytes("r3"))).getValue(F, bytes("q")));
        assertArrayEquals(
            bytes("default"), other.get(new Get(bytes("r0"))).getValue(F, bytes("q")));
        assertEquals(embedded(served, "ns:t"), scanned(table));
        assertEquals(20, scanned(table).size());
      }

      IOException notEmpty = assertThrows(IOException.class, () -> admin.deleteNamespace("ns"));
      assertTrue(
          describe(notEmpty).contains("ConstraintException")
              && describe(notEmpty).contains("Only empty namespaces can be removed"),
          describe(notEmpty));
      IOException reserved =
          assertThrows(IOException.class, () -> admin.deleteNamespace("default"));
      assertTrue(describe(reserved).contains("Reserved namespace default"), describe(reserved));
      assertThrows(NamespaceNotFoundException.class, () -> admin.deleteNamespace("nope"));

      admin.modifyNamespace(NamespaceDescriptor.create("ns").addConfiguration("k", "w").build());
      assertEquals("w", admin.getNamespaceDescriptor("ns").getConfigurationValue("k"));
      assertThrows(
          NamespaceNotFoundException.class,
          () -> admin.modifyNamespace(NamespaceDescriptor.create("nope").build()));
    }
    assertTrue(
        Files.isDirectory(data.resolve("namespaces").resolve("ns").resolve("t")),
        "the table lives in its namespace's directory");

    try (ServedCellar served = ServedCellar.start(data);
        Admin admin = served.connection.getAdmin()) {
      assertEquals(List.of("default", "hbase", "ns"), sorted(admin.listNamespaces()));
      assertEquals("w", admin.getNamespaceDescriptor("ns").getConfigurationValue("k"));
      try (Table table = served.connection.getTable(IN_NS)) {
        assertEquals(20, scanned(table).size());
        assertEquals(embedded(served, "ns:t"), scanned(table));
      }
      admin.disableTable(IN_NS);
      admin.deleteTable(IN_NS);
      assertFalse(admin.tableExists(IN_NS));
      admin.deleteNamespace("ns");
      assertEquals(List.of("default", "hbase"), sorted(admin.listNamespaces()));
      assertThrows(NamespaceNotFoundException.class, () -> admin.getNamespaceDescriptor("ns"));
    }

    try (ServedCellar served = ServedCellar.start(data);
        Admin admin = served.connection.getAdmin()) {
      assertEquals(List.of("default", "hbase"), sorted(admin.listNamespaces()));
      assertEquals(List.of(IN_DEFAULT), Arrays.asList(admin.listTableNames()));
    }
  }

  private static List<String> sorted(String[] names) {
    List<String> list = new ArrayList<>(Arrays.asList(names));
    list.sort(null);
    return list;
  }

  /** An exception and its causes, as text. */
  private static String describe(Throwable failure) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      text.append(t).append(" / ");
    }
    return text.toString();
  }

  private static List<String> scanned(Table table) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(new Scan())) {
      for (Result result : scanner) {
        rows.add(
            Bytes.toString(result.getRow()) + "=" + Bytes.toString(result.getValue(F, bytes("q"))));
      }
    }
    return rows;
  }

  private static List<String> embedded(ServedCellar served, String table) throws IOException {
    List<String> rows = new ArrayList<>();
    try (dev.cellar.ResultScanner scanner =
        served.server.database().table(table).scanner(new dev.cellar.Scan())) {
      for (dev.cellar.Result result : scanner) {
        try (result) {
          rows.add(
              new String(result.row(), StandardCharsets.UTF_8)
                  + "="
                  + new String(result.getValue(F, bytes("q")), StandardCharsets.UTF_8));
        }
      }
    }
    return rows;
  }
}
