package dev.cellar.client;

import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.TableDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.ColumnFamilySchema;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableSchema;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * Between Cellar's table descriptors and HBase's table schemas: family attributes travel under
 * their HBase names ({@code VERSIONS}, {@code BLOCKSIZE}, ...) as UTF-8 strings; tables live in the
 * namespace their name gives, HBase's {@code default} without one. Reading a schema keeps the
 * attributes Cellar has and drops HBase's others (REPLICATION_SCOPE, ...). Stateless.
 */
final class Schemas {

  static final String NAMESPACE = "default";
  private static final Set<String> CELLAR_ATTRIBUTES =
      Set.of(
          "BLOCKSIZE",
          "BLOOMFILTER",
          "DATA_BLOCK_ENCODING",
          "COMPRESSION",
          "IN_MEMORY",
          "BLOCKCACHE",
          "VERSIONS",
          "TTL",
          "MIN_VERSIONS");

  private Schemas() {}

  /** HBase's form of {@code [namespace:]qualifier}. */
  static HBaseProtos.TableName tableName(String table) {
    int colon = table.indexOf(':');
    return HBaseProtos.TableName.newBuilder()
        .setNamespace(ByteString.copyFromUtf8(colon < 0 ? NAMESPACE : table.substring(0, colon)))
        .setQualifier(ByteString.copyFromUtf8(table.substring(colon + 1)))
        .build();
  }

  /** Cellar's name of HBase's table name: {@code namespace:qualifier}, bare in the default one. */
  static String name(HBaseProtos.TableName table) {
    String namespace = table.getNamespace().toStringUtf8();
    String qualifier = table.getQualifier().toStringUtf8();
    return namespace.isEmpty() || namespace.equals(NAMESPACE)
        ? qualifier
        : namespace + ":" + qualifier;
  }

  static TableSchema schema(TableDescriptor descriptor) {
    TableSchema.Builder schema =
        TableSchema.newBuilder().setTableName(tableName(descriptor.name()));
    for (ColumnFamilyDescriptor family : descriptor.families()) {
      schema.addColumnFamilies(family(family));
    }
    return schema.build();
  }

  static ColumnFamilySchema family(ColumnFamilyDescriptor family) {
    ColumnFamilySchema.Builder builder =
        ColumnFamilySchema.newBuilder().setName(ByteString.copyFromUtf8(family.name()));
    family
        .attributes()
        .forEach(
            (key, value) ->
                builder.addAttributes(
                    HBaseProtos.BytesBytesPair.newBuilder()
                        .setFirst(ByteString.copyFromUtf8(key))
                        .setSecond(
                            ByteString.copyFromUtf8(
                                key.equals("TTL") && value.equals("FOREVER")
                                    ? Long.toString(ColumnFamilyDescriptor.FOREVER)
                                    : value))));
    return builder.build();
  }

  static TableDescriptor descriptor(TableSchema schema) {
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    for (ColumnFamilySchema family : schema.getColumnFamiliesList()) {
      Map<String, String> attributes = new LinkedHashMap<>();
      for (HBaseProtos.BytesBytesPair pair : family.getAttributesList()) {
        String key = pair.getFirst().toString(StandardCharsets.UTF_8);
        if (CELLAR_ATTRIBUTES.contains(key)) {
          attributes.put(key, pair.getSecond().toString(StandardCharsets.UTF_8));
        }
      }
      families.add(ColumnFamilyDescriptor.of(family.getName().toStringUtf8(), attributes));
    }
    return new TableDescriptor(name(schema.getTableName()), families);
  }
}
