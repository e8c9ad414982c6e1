package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.TableDescriptor;
import dev.cellar.server.catalog.Catalog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client that disappears mid-scan: the lease closes its scanner and drops what it pinned. */
class ScannerLeaseTest {

  @TempDir Path dir;

  @Test
  void anAbandonedScannerIsClosedByItsLease() throws Exception {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      for (int i = 0; i < 1000; i++) {
        cellar
            .table("t")
            .put(
                new Put(("row-" + i).getBytes(StandardCharsets.UTF_8))
                    .addColumn(new byte[] {'f'}, new byte[] {'q'}, new byte[100]));
      }
      cellar.admin().flush("t");
    }
    CellarConfig config =
        CellarConfig.defaults()
            .with(ServerOptions.PORT, "0")
            .with(ServerOptions.SCANNER_TIMEOUT, "300");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      Catalog.Entry table = server.catalog().byName("t");
      try (RawRpcClient client = RawRpcClient.connect(server.address(), "ClientService")) {
        client.call(
            "Scan",
            ClientProtos.ScanRequest.newBuilder()
                .setRegion(
                    HBaseProtos.RegionSpecifier.newBuilder()
                        .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                        .setValue(ByteString.copyFrom(table.regionName())))
                .setScan(ClientProtos.Scan.newBuilder())
                .setNumberOfRows(10)
                .build(),
            null);
        ClientProtos.ScanResponse response =
            ClientProtos.ScanResponse.parseFrom(client.read().body());
        assertEquals(10, response.getCellsPerResultCount());
        assertTrue(response.getMoreResultsInRegion());
        assertEquals(300, response.getTtl());
        assertEquals(1, server.openScanners());
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (server.openScanners() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(0, server.openScanners(), "the lease closed the abandoned scanner");
    }
  }
}
