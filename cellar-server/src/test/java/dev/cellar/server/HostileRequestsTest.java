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
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests whose work the client controls cannot hold the server: a table-name pattern that
 * backtracks without end is refused after its time bound, naming it; a filter nested deeper than
 * the server converts is refused at once instead of exhausting its stack, the server answering the
 * next request on the same connection; no connection reaches a scanner another opened; and a
 * connection that does not introduce itself soon, or with a header of a megabyte, is closed.
 */
class HostileRequestsTest {

  @TempDir Path dir;

  @Test
  void aBacktrackingTableNamePatternIsCutShort() throws Exception {
    String name = "a".repeat(40);
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of(name, ColumnFamilyDescriptor.of("f")));
    }
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config);
        RawRpcClient client = RawRpcClient.connect(server.address(), "MasterService")) {
      long start = System.nanoTime();
      client.call(
          "GetTableNames",
          MasterProtos.GetTableNamesRequest.newBuilder().setRegex("(.*a){12}b").build(),
          null);
      RawRpcClient.Response refused = client.read();
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(refused.header().hasException());
      String message = refused.header().getException().getStackTrace();
      assertTrue(message.contains("'(.*a){12}b' took more than"), message);
      assertTrue(millis < 5_000, "the pattern held the server " + millis + " ms");
      client.call(
          "GetTableNames",
          MasterProtos.GetTableNamesRequest.newBuilder().setRegex("a+").build(),
          null);
      assertEquals(
          1,
          MasterProtos.GetTableNamesResponse.parseFrom(client.read().body()).getTableNamesCount());
    }
  }

  @Test
  void aFilterNestedTooDeepIsRefusedAtOnce() throws Exception {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    }
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config);
        RawRpcClient client = RawRpcClient.connect(server.address(), "ClientService")) {
      Catalog.Entry table = server.catalog().byName("t");
      client.call("Scan", scan(table, nested(5_000)), null);
      RawRpcClient.Response refused = client.read();
      assertTrue(refused.header().hasException());
      String message = refused.header().getException().getStackTrace();
      assertTrue(message.contains("more than 64 deep"), message);
      assertFalse(message.contains("StackOverflowError"), message);
      client.call("Scan", scan(table, nested(60)), null);
      RawRpcClient.Response answered = client.read();
      assertFalse(answered.header().hasException(), "60 levels are served");
    }
  }

  @Test
  void aScannerAnswersOnlyTheConnectionThatOpenedIt() throws Exception {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      for (String row : new String[] {"a", "b", "c"}) {
        cellar
            .table("t")
            .put(new Put(row.getBytes()).addColumn("f".getBytes(), "q".getBytes(), row.getBytes()));
      }
    }
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config);
        RawRpcClient owner = RawRpcClient.connect(server.address(), "ClientService");
        RawRpcClient other = RawRpcClient.connect(server.address(), "ClientService")) {
      Catalog.Entry table = server.catalog().byName("t");
      owner.call(
          "Scan",
          scan(table, null).toBuilder().setNumberOfRows(1).setCloseScanner(false).build(),
          null);
      long id = ClientProtos.ScanResponse.parseFrom(owner.read().body()).getScannerId();
      other.call(
          "Scan",
          ClientProtos.ScanRequest.newBuilder().setScannerId(id).setNumberOfRows(1).build(),
          null);
      RawRpcClient.Response stolen = other.read();
      assertTrue(stolen.header().hasException());
      assertEquals(
          "org.apache.hadoop.hbase.UnknownScannerException",
          stolen.header().getException().getExceptionClassName());
      other.call(
          "Scan",
          ClientProtos.ScanRequest.newBuilder().setScannerId(id).setCloseScanner(true).build(),
          null);
      other.read();
      owner.call(
          "Scan",
          ClientProtos.ScanRequest.newBuilder()
              .setScannerId(id)
              .setNumberOfRows(10)
              .setNextCallSeq(0)
              .build(),
          null);
      ClientProtos.ScanResponse rest = ClientProtos.ScanResponse.parseFrom(owner.read().body());
      assertEquals(2, rest.getCellsPerResultCount(), "the owner's scan goes on: b and c");
    }
  }

  @Test
  void aConnectionMustIntroduceItselfSoonAndBriefly() throws Exception {
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      try (Socket oversized =
          new Socket(server.address().getAddress(), server.address().getPort())) {
        DataOutputStream out = new DataOutputStream(oversized.getOutputStream());
        out.write(new byte[] {'H', 'B', 'a', 's', 0, 80});
        out.writeInt(1 << 20);
        out.flush();
        oversized.setSoTimeout(5_000);
        assertTrue(drainsToEnd(oversized), "a 1 MiB connection header closes the connection");
      }
      try (Socket silent = new Socket(server.address().getAddress(), server.address().getPort())) {
        silent.setSoTimeout(20_000);
        long start = System.nanoTime();
        assertTrue(drainsToEnd(silent), "a connection that sends nothing is closed");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertTrue(seconds >= 9 && seconds < 20, "closed after " + seconds + " s");
      }
    }
  }

  /** Reads until the server closes the connection; false if it stays open past the timeout. */
  private static boolean drainsToEnd(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    try {
      while (in.read() >= 0) {
        // the error frame the server may send before it closes
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true;
    }
  }

  private static ClientProtos.ScanRequest scan(Catalog.Entry table, FilterProtos.Filter filter) {
    return ClientProtos.ScanRequest.newBuilder()
        .setRegion(
            HBaseProtos.RegionSpecifier.newBuilder()
                .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFrom(table.regionName())))
        .setScan(
            filter == null
                ? ClientProtos.Scan.newBuilder()
                : ClientProtos.Scan.newBuilder().setFilter(filter))
        .setNumberOfRows(10)
        .setCloseScanner(true)
        .build();
  }

  /** A FilterAllFilter inside {@code depth - 1} single-member filter lists. */
  private static FilterProtos.Filter nested(int depth) {
    FilterProtos.Filter filter =
        FilterProtos.Filter.newBuilder()
            .setName("org.apache.hadoop.hbase.filter.FilterAllFilter")
            .setSerializedFilter(FilterProtos.FilterAllFilter.getDefaultInstance().toByteString())
            .build();
    for (int level = 1; level < depth; level++) {
      filter =
          FilterProtos.Filter.newBuilder()
              .setName("org.apache.hadoop.hbase.filter.FilterList")
              .setSerializedFilter(
                  FilterProtos.FilterList.newBuilder()
                      .setOperator(FilterProtos.FilterList.Operator.MUST_PASS_ALL)
                      .addFilters(filter)
                      .build()
                      .toByteString())
              .build();
    }
    return filter;
  }
}
