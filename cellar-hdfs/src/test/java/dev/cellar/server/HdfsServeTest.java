package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.TableDescriptor;
import dev.cellar.hdfs.MiniHdfs;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code cellar serve} of a database on a MiniDFSCluster: its catalog and cluster id live there
 * too.
 */
class HdfsServeTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aServedDatabaseOnHdfsKeepsItsTablesAndClusterIdAcrossRestarts() throws Exception {
    String location = hdfs.newDirectory("served");
    CellarConfig config = hdfs.config().with(ServerOptions.PORT, "0");
    String clusterId;
    try (CellarServer server = CellarServer.start(ServerOptions.from(location, config), config)) {
      server
          .database()
          .admin()
          .createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      server
          .database()
          .table("t")
          .put(new Put(bytes("r")).addColumn(bytes("f"), bytes("q"), bytes("v")));
      clusterId = server.clusterId();
    }
    for (int restart = 0; restart < 2; restart++) {
      try (CellarServer server = CellarServer.start(ServerOptions.from(location, config), config)) {
        assertEquals(clusterId, server.clusterId());
        assertNotNull(server.catalog().byName("t"), "the catalog entry, restart " + restart);
        try (Result result = server.database().table("t").get(new Get(bytes("r")))) {
          assertArrayEquals(bytes("v"), result.getValue(bytes("f"), bytes("q")));
        }
      }
    }
  }
}
