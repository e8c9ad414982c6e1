package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HBaseClientSmokeTest {

  @TempDir Path dir;

  @Test
  void putsAndGets() throws Exception {
    try (ServedCellar served = ServedCellar.start(dir)) {
      TableName name = TableName.valueOf("t");
      try (Admin admin = served.connection.getAdmin()) {
        admin.createTable(TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f")).build());
        assertTrue(admin.tableExists(name));
      }
      try (Table table = served.connection.getTable(name)) {
        table.put(new Put(Bytes.toBytes("r1")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"),
            Bytes.toBytes("v1")));
        assertArrayEquals(Bytes.toBytes("v1"), table.get(new Get(Bytes.toBytes("r1")))
            .getValue(Bytes.toBytes("f"), Bytes.toBytes("q")));
      }
    }
  }
}
