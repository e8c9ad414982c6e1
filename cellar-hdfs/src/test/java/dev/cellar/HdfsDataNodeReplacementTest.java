package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two DataNodes and the client's default {@code dfs.replication} (3): when a DataNode of the log's
 * pipeline stops, HDFS's default policy wants another in its place and there is none, so the write
 * fails, in one line naming the setting to change.
 */
class HdfsDataNodeReplacementTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(2);

  private static Put put(String row) {
    byte[] bytes = row.getBytes(StandardCharsets.UTF_8);
    return new Put(bytes).addColumn(bytes("f"), bytes("q"), bytes);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aLogPipelineLosingADataNodeWithNoneToReplaceItFailsInOneLineNamingTheSetting()
      throws Exception {
    String location = hdfs.newDirectory("replacement");
    Cellar cellar = Cellar.open(location, hdfs.config().with("dfs.replication", "3"));
    try {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      cellar.table("t").put(put("before"));
      hdfs.cluster().stopDataNode(0);
      IOException failed =
          assertThrows(IOException.class, () -> cellar.table("t").put(put("after")));
      String message = failed.getMessage();
      assertTrue(message.contains(location + "/wal/wal-"), message);
      assertTrue(message.contains("replication of 3"), message);
      assertTrue(message.contains("set dfs.replication to the number of DataNodes"), message);
      assertFalse(message.contains("\n"), message);
    } finally {
      cellar.abort();
    }
  }
}
