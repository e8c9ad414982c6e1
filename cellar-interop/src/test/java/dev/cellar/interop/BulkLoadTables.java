package dev.cellar.interop;

import dev.cellar.Cellar;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * The table the bulk-load interop tests move between Cellar and HBase: three families with
 * different encodings, codecs, blooms, block sizes and versions, declared alike on both sides;
 * random puts of several versions and column and family deletes on 1200 rows; and every cell either
 * side reads (HBase's client, HBase's file reader, Cellar's scan), in one line format, to compare
 * them.
 */
final class BulkLoadTables {

  static final List<String> FAMILIES = List.of("a", "b", "c");
  static final byte[][] SPLITS = {bytes("row-0400"), bytes("row-0800")};

  private BulkLoadTables() {}

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** The three families' settings by HBase's attribute names: encodings, codecs, versions. */
  private static Map<String, String> attributes(String family) {
    return switch (family) {
      case "a" ->
          Map.of(
              "VERSIONS",
              "3",
              "DATA_BLOCK_ENCODING",
              "FAST_DIFF",
              "COMPRESSION",
              "GZ",
              "BLOCKSIZE",
              "4096",
              "BLOOMFILTER",
              "ROW");
      case "b" ->
          Map.of(
              "VERSIONS",
              "1",
              "DATA_BLOCK_ENCODING",
              "NONE",
              "COMPRESSION",
              "SNAPPY",
              "BLOOMFILTER",
              "ROWCOL");
      default ->
          Map.of(
              "VERSIONS",
              "2",
              "DATA_BLOCK_ENCODING",
              "ROW_INDEX_V1",
              "COMPRESSION",
              "ZSTD",
              "BLOOMFILTER",
              "NONE",
              "BLOCKSIZE",
              "8192");
    };
  }

  static TableDescriptor cellarTable(String name) {
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    for (String family : FAMILIES) {
      families.add(ColumnFamilyDescriptor.of(family, attributes(family)));
    }
    return new TableDescriptor(name, families);
  }

  static org.apache.hadoop.hbase.client.TableDescriptor hbaseTable(TableName name) {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name);
    for (String family : FAMILIES) {
      Map<String, String> attributes = attributes(family);
      table.setColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(bytes(family))
              .setMaxVersions(Integer.parseInt(attributes.get("VERSIONS")))
              .setDataBlockEncoding(
                  DataBlockEncoding.valueOf(attributes.get("DATA_BLOCK_ENCODING")))
              .setCompressionType(Compression.Algorithm.valueOf(attributes.get("COMPRESSION")))
              .setBloomFilterType(BloomType.valueOf(attributes.get("BLOOMFILTER")))
              .setBlocksize(Integer.parseInt(attributes.getOrDefault("BLOCKSIZE", "65536")))
              .build());
    }
    return table.build();
  }

  /** One random operation on a row: a put of several versions, or a column or family delete. */
  record Operation(
      String row, String family, String qualifier, long timestamp, int kind, String value) {

    boolean deletesFamily() {
      return kind == 0;
    }

    boolean deletesColumn() {
      return kind == 1;
    }
  }

  static List<Operation> operations(long seed, int count) {
    Random random = new Random(seed);
    List<Operation> operations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      operations.add(
          new Operation(
              "row-%04d".formatted(random.nextInt(1200)),
              FAMILIES.get(random.nextInt(FAMILIES.size())),
              "q" + random.nextInt(3),
              1_000 + random.nextInt(6),
              random.nextInt(12),
              "value-" + i + "-" + seed));
    }
    return operations;
  }

  /** Applies {@code operations} to Cellar's table {@code name}, flushing after the first third. */
  static void write(Cellar cellar, String name, List<Operation> operations) throws IOException {
    dev.cellar.Table table = cellar.table(name);
    for (int i = 0; i < operations.size(); i++) {
      Operation op = operations.get(i);
      if (op.deletesFamily()) {
        table.delete(new dev.cellar.Delete(bytes(op.row())).addFamily(bytes(op.family())));
      } else if (op.deletesColumn()) {
        table.delete(
            new dev.cellar.Delete(bytes(op.row()))
                .addColumns(bytes(op.family()), bytes(op.qualifier()), op.timestamp()));
      } else {
        table.put(
            new dev.cellar.Put(bytes(op.row()))
                .addColumn(
                    bytes(op.family()), bytes(op.qualifier()), op.timestamp(), bytes(op.value())));
      }
      if (i == operations.size() / 3) {
        cellar.admin().flush(name);
      }
    }
  }

  /** Every version of every cell HBase's client reads, in Cellar's dump format (no tags). */
  static List<String> hbaseDump(Connection connection, TableName name) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Table table = connection.getTable(name);
        org.apache.hadoop.hbase.client.ResultScanner scanner =
            table.getScanner(new Scan().readAllVersions())) {
      for (org.apache.hadoop.hbase.client.Result result : scanner) {
        for (Cell cell : result.rawCells()) {
          lines.add(
              line(
                  CellUtil.cloneRow(cell),
                  CellUtil.cloneFamily(cell),
                  CellUtil.cloneQualifier(cell),
                  cell.getTimestamp(),
                  cell.getType().name(),
                  CellUtil.cloneValue(cell),
                  new byte[0]));
        }
      }
    }
    return lines;
  }

  /** The cells HBase's own reader read from store files, tags included. */
  static List<String> hbaseFileDump(List<CellSpec> cells) {
    return cells.stream()
        .map(
            cell ->
                line(
                    cell.row(),
                    cell.family(),
                    cell.qualifier(),
                    cell.timestamp(),
                    CellType.fromCode(cell.type()).name(),
                    cell.value(),
                    cell.tags()))
        .toList();
  }

  /** Every version, up to {@code versions}, of every cell Cellar's scan reads, tags included. */
  static List<String> cellarDump(dev.cellar.Table table, int versions) throws IOException {
    List<String> lines = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(new dev.cellar.Scan().readVersions(versions))) {
      for (Result next = scanner.next(); next != null; next = scanner.next()) {
        try (Result result = next) {
          for (dev.cellar.cell.Cell cell : result.rawCells()) {
            lines.add(
                line(
                    cell.rowArray(),
                    cell.familyArray(),
                    cell.qualifierArray(),
                    cell.timestamp(),
                    cell.type().name(),
                    cell.valueArray(),
                    cell.tagsArray()));
          }
        }
      }
    }
    return lines;
  }

  private static String line(
      byte[] row,
      byte[] family,
      byte[] qualifier,
      long timestamp,
      String type,
      byte[] value,
      byte[] tags) {
    return Bytes.toStringBinary(row)
        + "/"
        + new String(family, StandardCharsets.UTF_8)
        + ":"
        + Bytes.toStringBinary(qualifier)
        + "/"
        + timestamp
        + "/"
        + type.toUpperCase(Locale.ROOT)
        + "="
        + Bytes.toStringBinary(value)
        + (tags.length > 0 ? " tags " + Bytes.toStringBinary(tags) : "");
  }
}
