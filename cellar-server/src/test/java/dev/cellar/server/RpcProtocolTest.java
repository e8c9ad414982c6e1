package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetConnectionRegistryResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wire protocol byte by byte: preambles, headers, framing, call ids and errors. */
class RpcProtocolTest {

  @TempDir Path dir;
  private CellarServer server;

  @BeforeEach
  void start() throws IOException {
    CellarConfig config =
        CellarConfig.defaults()
            .with(ServerOptions.PORT, "0")
            .with(ServerOptions.MAX_REQUEST_SIZE, "65536");
    server = CellarServer.start(ServerOptions.from(dir, config), config);
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
  }

  @Test
  void theRegistryPreambleIsAnsweredWithTheClusterIdThenClosed() throws IOException {
    try (RawRpcClient client = new RawRpcClient(server.address())) {
      client.raw("Regist".getBytes(StandardCharsets.US_ASCII));
      RawRpcClient.Response response = client.read();
      assertEquals(-1, response.header().getCallId());
      assertEquals(
          server.clusterId(),
          GetConnectionRegistryResponse.parseFrom(response.body()).getClusterId());
      assertTrue(client.closedByServer());
    }
  }

  @Test
  void callsAreAnsweredUnderTheirIdsAndUnknownMethodsDoNotBreakTheConnection() throws IOException {
    try (RawRpcClient client = RawRpcClient.connect(server.address(), "ClientMetaService")) {
      int unknown = client.call("NoSuchMethod", GetClusterIdRequest.getDefaultInstance(), null);
      int known = client.call("GetClusterId", GetClusterIdRequest.getDefaultInstance(), null);
      RawRpcClient.Response first = client.read();
      assertEquals(unknown, first.header().getCallId());
      ExceptionResponse error = first.header().getException();
      assertEquals("org.apache.hadoop.hbase.DoNotRetryIOException", error.getExceptionClassName());
      assertTrue(error.getDoNotRetry());
      assertTrue(error.getStackTrace().contains("NoSuchMethod"), error.getStackTrace());
      RawRpcClient.Response second = client.read();
      assertEquals(known, second.header().getCallId());
      assertEquals(
          server.clusterId(), GetClusterIdResponse.parseFrom(second.body()).getClusterId());
    }
  }

  @Test
  void aWrongPreambleGetsHBasesFatalErrorAndTheConnectionIsClosed() throws IOException {
    try (RawRpcClient client = new RawRpcClient(server.address())) {
      client.raw("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
      RawRpcClient.Response response = client.read();
      assertEquals(
          "org.apache.hadoop.hbase.ipc.FatalConnectionException",
          response.header().getException().getExceptionClassName());
      assertTrue(response.header().getException().getStackTrace().startsWith("Expected HEADER="));
      assertTrue(client.closedByServer());
    }
  }

  @Test
  void anOversizedFrameIsRefusedAndTheConnectionClosed() throws IOException {
    try (RawRpcClient client = RawRpcClient.connect(server.address(), "ClientService")) {
      client.raw(new byte[] {0x7f, 0, 0, 0});
      RawRpcClient.Response response = client.read();
      assertEquals(
          "org.apache.hadoop.hbase.exceptions.RequestTooBigException",
          response.header().getException().getExceptionClassName());
      assertTrue(client.closedByServer());
    }
  }

  @Test
  void anUnknownServiceOrCodecClosesTheConnection() throws IOException {
    try (RawRpcClient client = new RawRpcClient(server.address())) {
      client.raw(new byte[] {'H', 'B', 'a', 's', 0, 80});
      client.frame(
          ConnectionHeader.newBuilder().setServiceName("NoSuchService").build().toByteArray());
      assertTrue(client.read().header().getException().getStackTrace().contains("NoSuchService"));
      assertTrue(client.closedByServer());
    }
    try (RawRpcClient client = new RawRpcClient(server.address())) {
      client.raw(new byte[] {'H', 'B', 'a', 's', 0, 80});
      client.frame(
          ConnectionHeader.newBuilder()
              .setServiceName("ClientService")
              .setCellBlockCodecClass("org.apache.hadoop.hbase.codec.CellCodec")
              .build()
              .toByteArray());
      assertEquals(
          "org.apache.hadoop.hbase.ipc.UnsupportedCellCodecException",
          client.read().header().getException().getExceptionClassName());
      assertTrue(client.closedByServer());
    }
  }

  @Test
  void aSecondServerOnTheSameDirectoryOrPortFailsWithAClearMessage() {
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    IOException locked =
        org.junit.jupiter.api.Assertions.assertThrows(
            IOException.class, () -> CellarServer.start(ServerOptions.from(dir, config), config));
    assertTrue(
        locked.getMessage().contains("in use by another Cellar server"), locked.getMessage());
    CellarConfig samePort =
        CellarConfig.defaults()
            .with(ServerOptions.PORT, Integer.toString(server.address().getPort()));
    IOException taken =
        org.junit.jupiter.api.Assertions.assertThrows(
            IOException.class,
            () -> CellarServer.start(ServerOptions.from(dir.resolve("other"), samePort), samePort));
    assertTrue(taken.getMessage().startsWith("cannot listen on 127.0.0.1:"), taken.getMessage());
    assertFalse(taken.getMessage().contains("\n"));
  }
}
