package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.TableDescriptor;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gets and scans answered from an off-heap block cache, whose large cells go to the socket from the
 * cached blocks' memory: the values arrive intact, and the blocks' pins are released both when the
 * responses were written and when the client vanished with responses unread (Cellar's leak check,
 * run after every test, fails on a block still referenced once the database closed; Netty's on a
 * response buffer never released).
 */
@ExtendWith(TestSeedExtension.class)
class ZeroCopyReadTest {

  private static final int ROWS = 300;
  private static final int VALUE = 3000;

  @TempDir Path dir;

  @Test
  void largeValuesArriveIntactAndPinsAreReleased(TestSeed seed) throws Exception {
    byte[][] values = load(new Random(seed.value()));
    CellarConfig config = config();
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      Catalog.Entry table = server.catalog().byName("t");
      try (RawRpcClient client = RawRpcClient.connect(server.address(), "ClientService")) {
        for (int pass = 0; pass < 3; pass++) {
          for (int i = 0; i < ROWS; i++) {
            client.call("Get", get(table, i), null);
            RawRpcClient.Response response = client.read();
            assertEquals(
                1,
                ClientProtos.GetResponse.parseFrom(response.body())
                    .getResult()
                    .getAssociatedCellCount(),
                "row " + i);
            byte[] cells = response.cells();
            assertArrayEquals(
                values[i], value(Arrays.copyOfRange(cells, 4, cells.length)), "row " + i);
          }
        }
      }
      try (RawRpcClient client = RawRpcClient.connect(server.address(), "ClientService")) {
        client.call(
            "Scan",
            ClientProtos.ScanRequest.newBuilder()
                .setRegion(region(table))
                .setScan(ClientProtos.Scan.newBuilder())
                .setNumberOfRows(ROWS)
                .build(),
            null);
        RawRpcClient.Response response = client.read();
        assertEquals(
            ROWS, ClientProtos.ScanResponse.parseFrom(response.body()).getCellsPerResultCount());
        DataInputStream cells = new DataInputStream(new ByteArrayInputStream(response.cells()));
        for (int i = 0; i < ROWS; i++) {
          byte[] cell = new byte[cells.readInt()];
          cells.readFully(cell);
          assertArrayEquals(values[i], value(cell), "scanned row " + i);
        }
      }
    }
  }

  @Test
  void aClientGoneMidWriteReleasesThePins() throws Exception {
    load(new Random(1));
    CellarConfig config = config();
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      Catalog.Entry table = server.catalog().byName("t");
      RawRpcClient client = RawRpcClient.connect(server.address(), "ClientService");
      for (int i = 0; i < 2_000; i++) {
        client.call("Get", get(table, i % ROWS), null);
      }
      client.abort();
      try (RawRpcClient other = RawRpcClient.connect(server.address(), "ClientService")) {
        other.call("Get", get(table, 7), null);
        assertEquals(
            1,
            ClientProtos.GetResponse.parseFrom(other.read().body())
                .getResult()
                .getAssociatedCellCount());
      }
    }
  }

  private CellarConfig config() {
    return CellarConfig.defaults()
        .with(ServerOptions.PORT, "0")
        .with("hbase.bucketcache.ioengine", "offheap")
        .with("hbase.bucketcache.size", "64");
  }

  private byte[][] load(Random random) throws IOException {
    byte[][] values = new byte[ROWS][];
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      for (int i = 0; i < ROWS; i++) {
        values[i] = new byte[VALUE];
        random.nextBytes(values[i]);
        cellar
            .table("t")
            .put(new Put(row(i)).addColumn(new byte[] {'f'}, new byte[] {'q'}, values[i]));
      }
      cellar.admin().flush("t");
      try (Result result = cellar.table("t").get(new Get(row(0)))) {
        assertArrayEquals(values[0], result.getValue(new byte[] {'f'}, new byte[] {'q'}));
      }
    }
    return values;
  }

  private static HBaseProtos.RegionSpecifier region(Catalog.Entry table) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(table.regionName()))
        .build();
  }

  private static ClientProtos.GetRequest get(Catalog.Entry table, int i) {
    return ClientProtos.GetRequest.newBuilder()
        .setRegion(region(table))
        .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFrom(row(i))))
        .build();
  }

  /** The value of a KeyValue (its bytes after the cell block's length prefix). */
  private static byte[] value(byte[] keyValue) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(keyValue));
    int keyLength = in.readInt();
    int valueLength = in.readInt();
    assertEquals(keyValue.length, 8 + keyLength + valueLength);
    return Arrays.copyOfRange(keyValue, 8 + keyLength, 8 + keyLength + valueLength);
  }

  private static byte[] row(int i) {
    return String.format("row-%06d", i).getBytes(StandardCharsets.UTF_8);
  }
}
