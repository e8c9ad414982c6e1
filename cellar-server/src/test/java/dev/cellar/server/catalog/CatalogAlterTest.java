package dev.cellar.server.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.io.Storage;
import dev.cellar.server.rpc.RpcException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.ColumnFamilySchema;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableSchema;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog's alters: the stored schema follows the table's families, an attribute Cellar does
 * not have (REPLICATION_SCOPE) is kept verbatim, a family mistake is HBase's
 * InvalidFamilyOperationException, and a schema that a crash left behind an alter of the database
 * is brought in line with the table's families when the catalog opens.
 */
class CatalogAlterTest {

  @TempDir Path dir;

  private static ColumnFamilySchema family(String name, String... attributes) {
    ColumnFamilySchema.Builder family =
        ColumnFamilySchema.newBuilder().setName(ByteString.copyFromUtf8(name));
    for (int i = 0; i < attributes.length; i += 2) {
      family.addAttributes(
          HBaseProtos.BytesBytesPair.newBuilder()
              .setFirst(ByteString.copyFromUtf8(attributes[i]))
              .setSecond(ByteString.copyFromUtf8(attributes[i + 1])));
    }
    return family.build();
  }

  private static List<String> names(TableSchema schema) {
    return schema.getColumnFamiliesList().stream()
        .map(family -> family.getName().toString(StandardCharsets.UTF_8))
        .toList();
  }

  @Test
  void altersKeepTheSchemaInLineWithTheTable() throws IOException, RpcException {
    Path database = dir.resolve("db");
    Path catalogDirectory = dir.resolve("catalog");
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults())) {
      Catalog catalog = Catalog.open(cellar, Storage.local(), catalogDirectory);
      catalog.create(
          TableSchema.newBuilder()
              .setTableName(SchemaMapping.protoName("t"))
              .addColumnFamilies(family("f", "REPLICATION_SCOPE", "1"))
              .build(),
          new byte[0][]);
      catalog.addFamily("t", family("g", "VERSIONS", "4", "REPLICATION_SCOPE", "1"));
      assertEquals(List.of("f", "g"), names(catalog.byName("t").schema()));
      assertEquals(4, cellar.admin().describe("t").family("g").maxVersions());

      catalog.modifyFamily("t", family("f", "VERSIONS", "2", "REPLICATION_SCOPE", "1"));
      assertEquals(2, cellar.admin().describe("t").family("f").maxVersions());
      assertEquals(
          family("f", "VERSIONS", "2", "REPLICATION_SCOPE", "1"),
          catalog.byName("t").schema().getColumnFamilies(0),
          "kept verbatim");

      RpcException mistake =
          org.junit.jupiter.api.Assertions.assertThrows(
              RpcException.class, () -> catalog.addFamily("t", family("f")));
      assertEquals("org.apache.hadoop.hbase.InvalidFamilyOperationException", mistake.className());
      assertTrue(mistake.getMessage().contains("has family f already"), mistake.getMessage());

      catalog.deleteFamily("t", "f");
      assertEquals(List.of("g"), names(catalog.byName("t").schema()));

      // an alter of the database whose schema write a crash prevented
      cellar.admin().addFamily("t", ColumnFamilyDescriptor.of("h", Map.of("VERSIONS", "7")));
    }
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults())) {
      Catalog catalog = Catalog.open(cellar, Storage.local(), catalogDirectory);
      TableSchema schema = catalog.byName("t").schema();
      assertEquals(List.of("g", "h"), names(schema));
      assertEquals(
          family("g", "VERSIONS", "4", "REPLICATION_SCOPE", "1"),
          schema.getColumnFamilies(0),
          "a family that agrees stays verbatim");
      assertEquals(7, SchemaMapping.descriptor(schema).family("h").maxVersions());
    }
  }
}
