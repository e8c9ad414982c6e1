package dev.cellar.server.catalog;

import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.TableDescriptor;
import dev.cellar.server.rpc.RpcException;
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
 * Between HBase's table schemas and Cellar's descriptors. A family attribute Cellar has (BLOCKSIZE,
 * BLOOMFILTER, DATA_BLOCK_ENCODING, COMPRESSION, IN_MEMORY, BLOCKCACHE, VERSIONS, TTL,
 * MIN_VERSIONS) is applied, any other (REPLICATION_SCOPE, KEEP_DELETED_CELLS, ...) is kept only in
 * the schema the server stores verbatim and returns to clients. A table's name is Cellar's: {@code
 * qualifier} in the {@code default} namespace, {@code namespace:qualifier} in another. Stateless.
 */
public final class SchemaMapping {

  public static final String DEFAULT_NAMESPACE = "default";
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

  private SchemaMapping() {}

  /** Cellar's table name for an HBase table name (unchecked: a bad name finds no table). */
  public static String tableName(HBaseProtos.TableName name) {
    String namespace = name.getNamespace().toStringUtf8();
    String qualifier = name.getQualifier().toStringUtf8();
    return namespace.isEmpty() || namespace.equals(DEFAULT_NAMESPACE)
        ? qualifier
        : namespace + ":" + qualifier;
  }

  /** HBase's table name for Cellar's table name. */
  public static HBaseProtos.TableName protoName(String table) {
    int colon = table.indexOf(':');
    return HBaseProtos.TableName.newBuilder()
        .setNamespace(
            ByteString.copyFromUtf8(colon < 0 ? DEFAULT_NAMESPACE : table.substring(0, colon)))
        .setQualifier(ByteString.copyFromUtf8(table.substring(colon + 1)))
        .build();
  }

  /** The namespace of Cellar's table name. */
  public static String namespaceOf(String table) {
    int colon = table.indexOf(':');
    return colon < 0 ? DEFAULT_NAMESPACE : table.substring(0, colon);
  }

  /**
   * Cellar's descriptor of an HBase schema.
   *
   * @throws RpcException (DoNotRetry) naming the family and attribute that Cellar cannot take
   */
  public static TableDescriptor descriptor(TableSchema schema) throws RpcException {
    String table = tableName(schema.getTableName());
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    for (ColumnFamilySchema family : schema.getColumnFamiliesList()) {
      families.add(family(table, family));
    }
    try {
      return new TableDescriptor(table, families);
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry(e.getMessage());
    }
  }

  /**
   * Cellar's descriptor of one family of {@code table}'s HBase schema.
   *
   * @throws RpcException (DoNotRetry) naming the family and attribute that Cellar cannot take
   */
  public static ColumnFamilyDescriptor family(String table, ColumnFamilySchema family)
      throws RpcException {
    Map<String, String> attributes = new LinkedHashMap<>();
    for (HBaseProtos.BytesBytesPair pair : family.getAttributesList()) {
      String key = pair.getFirst().toString(StandardCharsets.UTF_8);
      if (CELLAR_ATTRIBUTES.contains(key)) {
        attributes.put(key, pair.getSecond().toString(StandardCharsets.UTF_8));
      }
    }
    try {
      return ColumnFamilyDescriptor.of(family.getName().toStringUtf8(), attributes);
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry("table " + table + ": " + e.getMessage());
    }
  }

  /**
   * {@code stored}, a schema kept for a table, made to agree with the table's {@code descriptor}
   * (they differ if a crash came between an alter of the table and the write of its schema): a
   * family kept whose Cellar attributes agree stays verbatim, any other comes from the descriptor.
   */
  public static TableSchema reconciled(TableSchema stored, TableDescriptor descriptor) {
    TableSchema fresh = schema(descriptor);
    TableSchema.Builder schema = stored.toBuilder().clearColumnFamilies();
    for (int i = 0; i < descriptor.families().size(); i++) {
      ColumnFamilyDescriptor family = descriptor.families().get(i);
      ColumnFamilySchema kept = null;
      for (ColumnFamilySchema candidate : stored.getColumnFamiliesList()) {
        if (candidate.getName().toStringUtf8().equals(family.name())) {
          kept = candidate;
        }
      }
      schema.addColumnFamilies(
          kept != null && agrees(descriptor.name(), kept, family)
              ? kept
              : fresh.getColumnFamilies(i));
    }
    return schema.build();
  }

  private static boolean agrees(
      String table, ColumnFamilySchema schema, ColumnFamilyDescriptor family) {
    try {
      return family(table, schema).equals(family);
    } catch (RpcException e) {
      return false;
    }
  }

  /** HBase's schema of a table Cellar created without one (through the embedded API). */
  public static TableSchema schema(TableDescriptor descriptor) {
    TableSchema.Builder schema =
        TableSchema.newBuilder().setTableName(protoName(descriptor.name()));
    for (ColumnFamilyDescriptor family : descriptor.families()) {
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
      schema.addColumnFamilies(builder);
    }
    return schema.build();
  }
}
