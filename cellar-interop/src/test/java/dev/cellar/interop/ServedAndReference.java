package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.TableDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * The two sides of a comparison test: table {@code t} on a {@link ServedCellar}, reached with
 * HBase's client, and the same table in an embedded Cellar database, the reference. Both have
 * family {@code f} keeping 5 versions and family {@code g} keeping 1. {@link #close} fails the test
 * if the server still holds an open scanner, then closes everything.
 */
final class ServedAndReference implements AutoCloseable {

  static final byte[] F = "f".getBytes(StandardCharsets.UTF_8);
  static final byte[] G = "g".getBytes(StandardCharsets.UTF_8);
  static final TableName NAME = TableName.valueOf("t");

  final ServedCellar served;
  final Cellar reference;
  final Table table;
  final dev.cellar.Table expected;

  private ServedAndReference(
      ServedCellar served, Cellar reference, Table table, dev.cellar.Table expected) {
    this.served = served;
    this.reference = reference;
    this.table = table;
    this.expected = expected;
  }

  /**
   * Starts the server under {@code dir/served} and opens the reference under {@code dir/reference}.
   */
  static ServedAndReference open(Path dir) throws IOException {
    ServedCellar served = ServedCellar.start(dir.resolve("served"));
    Cellar reference = null;
    try {
      reference = Cellar.open(dir.resolve("reference"), CellarConfig.defaults());
      try (Admin admin = served.connection.getAdmin()) {
        admin.createTable(
            TableDescriptorBuilder.newBuilder(NAME)
                .setColumnFamily(
                    ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(5).build())
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(G))
                .build());
      }
      reference
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t",
                  ColumnFamilyDescriptor.of("f", Map.of("VERSIONS", "5")),
                  ColumnFamilyDescriptor.of("g")));
      return new ServedAndReference(
          served, reference, served.connection.getTable(NAME), reference.table("t"));
    } catch (IOException | RuntimeException e) {
      served.close();
      if (reference != null) {
        reference.close();
      }
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      table.close();
      assertEquals(0, served.server.openScanners(), "scanners left open on the server");
    } finally {
      try {
        served.close();
      } finally {
        reference.close();
      }
    }
  }
}
