package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.TableDescriptor;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.MetaTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pre-split table served region by region, at the wire: hbase:meta's rows, a scan kept to the
 * region it names with {@code more_results} telling the client to go on, a reversed one the same
 * downwards, and a Get or Mutate of a row outside the named region refused with HBase's
 * WrongRegionException.
 */
class PreSplitRegionsTest {

  private static final byte[] F = bytes("f");

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static HBaseProtos.RegionSpecifier region(Catalog.ServedRegion region) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(region.name()))
        .build();
  }

  @Test
  void eachRegionAnswersForItsOwnRowsOnly() throws Exception {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")),
              new byte[][] {bytes("g"), bytes("p")});
      for (String row : List.of("a", "c", "g", "h", "p", "z")) {
        cellar.table("t").put(new Put(bytes(row)).addColumn(F, bytes("q"), bytes(row)));
      }
    }
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      Catalog.Entry table = server.catalog().byName("t");
      List<Catalog.ServedRegion> regions = table.regions();
      assertEquals(3, regions.size());
      List<String> metaRows = new ArrayList<>();
      for (MetaTable.Row row : new MetaTable(server.catalog(), server.identity()).rows()) {
        metaRows.add(new String(row.key(), StandardCharsets.UTF_8));
      }
      assertEquals(4, metaRows.size(), "a state row and a row per region: " + metaRows);
      try (RawRpcClient client = RawRpcClient.connect(server.address(), "ClientService")) {
        ClientProtos.ScanResponse middle =
            scan(client, regions.get(1), ClientProtos.Scan.newBuilder().build());
        assertEquals(2, middle.getCellsPerResultCount(), "g and h, not p or z");
        assertFalse(middle.getMoreResultsInRegion());
        assertTrue(middle.getMoreResults(), "the scan goes on in the next region");
        ClientProtos.ScanResponse last =
            scan(client, regions.get(2), ClientProtos.Scan.newBuilder().build());
        assertEquals(2, last.getCellsPerResultCount());
        assertFalse(last.getMoreResults(), "the table's last region ends the scan");
        ClientProtos.ScanResponse bounded =
            scan(
                client,
                regions.get(1),
                ClientProtos.Scan.newBuilder().setStopRow(ByteString.copyFrom(bytes("h"))).build());
        assertEquals(1, bounded.getCellsPerResultCount());
        assertFalse(bounded.getMoreResults(), "the stop row lies in this region");
        ClientProtos.ScanResponse reversed =
            scan(client, regions.get(1), ClientProtos.Scan.newBuilder().setReversed(true).build());
        assertEquals(2, reversed.getCellsPerResultCount(), "h and g, not p");
        assertTrue(reversed.getMoreResults(), "the reversed scan goes on in the region before");

        client.call(
            "Get",
            ClientProtos.GetRequest.newBuilder()
                .setRegion(region(regions.get(0)))
                .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFrom(bytes("z"))))
                .build(),
            null);
        RawRpcClient.Response refused = client.read();
        assertTrue(refused.header().hasException());
        assertEquals(
            "org.apache.hadoop.hbase.regionserver.WrongRegionException",
            refused.header().getException().getExceptionClassName());
        assertTrue(
            refused.header().getException().getStackTrace().contains("row='z'"),
            refused.header().getException().getStackTrace());
      }
    }
  }

  private static ClientProtos.ScanResponse scan(
      RawRpcClient client, Catalog.ServedRegion region, ClientProtos.Scan scan) throws Exception {
    client.call(
        "Scan",
        ClientProtos.ScanRequest.newBuilder()
            .setRegion(region(region))
            .setScan(scan)
            .setNumberOfRows(100)
            .build(),
        null);
    return ClientProtos.ScanResponse.parseFrom(client.read().body());
  }
}
