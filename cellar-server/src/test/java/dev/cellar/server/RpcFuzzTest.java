package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.CellarConfig;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of broken connections (random preambles, random, truncated and oversized frames,
 * garbage requests and cell blocks to every ClientService method), with a well-formed client
 * checking between them that the server still answers. Seeded: the seed is printed and can be given
 * back with {@code -Dcellar.test.seed}.
 */
@ExtendWith(TestSeedExtension.class)
class RpcFuzzTest {

  private static final int CASES = 3_000;
  private static final String[] METHODS = {"Get", "Mutate", "Multi", "Scan", "Nope"};

  @TempDir Path dir;

  @Test
  void brokenFramesNeverStopTheServerFromAnsweringWellFormedClients(TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    CellarConfig config =
        CellarConfig.defaults()
            .with(ServerOptions.PORT, "0")
            .with(ServerOptions.MAX_REQUEST_SIZE, "65536")
            .with(ServerOptions.HANDLERS, "4");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      for (int i = 0; i < CASES; i++) {
        try (RawRpcClient client = new RawRpcClient(server.address())) {
          breakIt(client, random);
        } catch (IOException e) {
          // the server closed the connection under the case: what it should do with garbage
        }
        if (i % 100 == 99) {
          assertStillAnswers(server, "after case " + i);
        }
      }
      assertStillAnswers(server, "at the end");
      assertEquals(0, server.openScanners(), "scanners left open");
    }
  }

  private static void breakIt(RawRpcClient client, Random random) throws IOException {
    switch (random.nextInt(5)) {
      case 0 -> client.raw(bytes(random, 1 + random.nextInt(40)));
      case 1 -> {
        preamble(client);
        client.frame(bytes(random, random.nextInt(300)));
        client.frame(bytes(random, random.nextInt(300)));
      }
      case 2 -> {
        preamble(client);
        header(client, random);
        client.raw(
            new byte[] {
              (byte) random.nextInt(256),
              (byte) random.nextInt(256),
              (byte) random.nextInt(256),
              (byte) random.nextInt(256)
            });
        client.raw(bytes(random, random.nextInt(100)));
      }
      case 3 -> {
        preamble(client);
        header(client, random);
        for (int call = 0; call < 1 + random.nextInt(5); call++) {
          byte[] cells = random.nextInt(3) == 0 ? null : bytes(random, random.nextInt(200));
          client.callRaw(
              METHODS[random.nextInt(METHODS.length)], bytes(random, random.nextInt(200)), cells);
        }
        if (random.nextBoolean()) {
          client.read();
        }
      }
      default -> {
        preamble(client);
        header(client, random);
        byte[] frame = validGetFrame(random);
        int cut = random.nextInt(frame.length + 1);
        byte[] truncated = java.util.Arrays.copyOf(frame, cut);
        if (cut == frame.length && frame.length > 0) {
          truncated[random.nextInt(frame.length)] ^= (byte) (1 << random.nextInt(8));
        }
        client.frame(truncated);
      }
    }
  }

  private static void preamble(RawRpcClient client) throws IOException {
    client.raw(new byte[] {'H', 'B', 'a', 's', 0, 80});
  }

  private static void header(RawRpcClient client, Random random) throws IOException {
    client.frame(
        org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader.newBuilder()
            .setServiceName(random.nextInt(4) == 0 ? "ClientMetaService" : "ClientService")
            .setCellBlockCodecClass(RawRpcClient.KEY_VALUE_CODEC)
            .build()
            .toByteArray());
  }

  private static byte[] validGetFrame(Random random) throws IOException {
    java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
    org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader.newBuilder()
        .setCallId(random.nextInt(1000))
        .setMethodName("Get")
        .setRequestParam(true)
        .build()
        .writeDelimitedTo(frame);
    ClientProtos.GetRequest.newBuilder()
        .setRegion(
            HBaseProtos.RegionSpecifier.newBuilder()
                .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFromUtf8("hbase:meta,,1")))
        .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFrom(bytes(random, 8))))
        .build()
        .writeDelimitedTo(frame);
    return frame.toByteArray();
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  private static void assertStillAnswers(CellarServer server, String when) throws IOException {
    try (RawRpcClient client = RawRpcClient.connect(server.address(), "ClientMetaService")) {
      int id = client.call("GetClusterId", GetClusterIdRequest.getDefaultInstance(), null);
      RawRpcClient.Response response = client.read();
      assertEquals(id, response.header().getCallId(), when);
      assertEquals(
          server.clusterId(), GetClusterIdResponse.parseFrom(response.body()).getClusterId(), when);
    }
  }
}
