package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.TableDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base of a comparison test: table {@code t} on a {@link ServedCellar}, reached with HBase's
 * client ({@link #table}), and the same table in an embedded Cellar database, the reference ({@link
 * #expected}). Both have family {@code f} keeping 5 versions and family {@code g} keeping 1. Each
 * test gets both fresh; after it, the test fails if the server still holds an open scanner, then
 * everything is closed.
 */
abstract class ServedComparison {

  static final byte[] F = bytes("f");
  static final byte[] G = bytes("g");
  static final TableName NAME = TableName.valueOf("t");

  @TempDir Path dir;
  ServedCellar served;
  Cellar reference;
  Table table;
  dev.cellar.Table expected;

  @BeforeEach
  void openBothSides() throws IOException {
    served = ServedCellar.start(dir.resolve("served"));
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
    table = served.connection.getTable(NAME);
    expected = reference.table("t");
  }

  @AfterEach
  void closeBothSides() throws IOException {
    try {
      if (table != null) {
        table.close();
        assertEquals(0, served.server.openScanners(), "scanners left open on the server");
      }
    } finally {
      try {
        if (served != null) {
          served.close();
        }
      } finally {
        if (reference != null) {
          reference.close();
        }
      }
    }
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String row(int i) {
    return String.format("row-%04d", i);
  }

  /** A result's cells as comparable text, {@code row/family:qualifier/timestamp=value}. */
  static List<String> cells(Result result) {
    List<String> cells = new ArrayList<>();
    for (Cell cell : result.rawCells()) {
      cells.add(
          Bytes.toString(CellUtil.cloneRow(cell))
              + "/"
              + Bytes.toString(CellUtil.cloneFamily(cell))
              + ":"
              + Bytes.toString(CellUtil.cloneQualifier(cell))
              + "/"
              + cell.getTimestamp()
              + "="
              + Bytes.toStringBinary(CellUtil.cloneValue(cell)));
    }
    return cells;
  }

  /** The reference's cells as the same text. */
  static List<String> cells(dev.cellar.Result result) {
    List<String> cells = new ArrayList<>();
    for (dev.cellar.cell.Cell cell : result.rawCells()) {
      cells.add(
          new String(cell.rowArray(), StandardCharsets.UTF_8)
              + "/"
              + new String(cell.familyArray(), StandardCharsets.UTF_8)
              + ":"
              + new String(cell.qualifierArray(), StandardCharsets.UTF_8)
              + "/"
              + cell.timestamp()
              + "="
              + Bytes.toStringBinary(cell.valueArray()));
    }
    return cells;
  }
}
