package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cellar.CellarConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors;
import org.apache.hbase.thirdparty.com.google.protobuf.DynamicMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every method of HBase 2.6.1's four services a client talks to (from HBase's own descriptors) is
 * either served or refused by name with a {@code DoNotRetryIOException} saying Cellar does not
 * support it, never "unknown method"; and the guide's table of them ({@code
 * docs/guide/protocol-methods.md}) says which, as the server does. Each method is called with an
 * empty request: a served one answers or refuses the empty request, which changes nothing.
 */
class ProtocolMethodsTest {

  private static final String NOT_SUPPORTED = "is not supported by Cellar";
  private static final Path GUIDE = Path.of("../docs/guide/protocol-methods.md");
  private static final String BEGIN = "<!-- methods: ProtocolMethodsTest checks this table -->";
  private static final String END = "<!-- /methods -->";

  @TempDir Path dir;

  @Test
  void everyMethodIsServedOrRefusedByNameAsTheGuideSays() throws IOException {
    List<Descriptors.ServiceDescriptor> services =
        List.of(
            RegistryProtos.ClientMetaService.getDescriptor(),
            ClientProtos.ClientService.getDescriptor(),
            AdminProtos.AdminService.getDescriptor(),
            MasterProtos.MasterService.getDescriptor());
    StringBuilder table = new StringBuilder("| service | method | Cellar |\n|---|---|---|\n");
    List<String> unknown = new ArrayList<>();
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server = CellarServer.start(ServerOptions.from(dir, config), config)) {
      for (Descriptors.ServiceDescriptor service : services) {
        try (RawRpcClient client = RawRpcClient.connect(server.address(), service.getName())) {
          for (Descriptors.MethodDescriptor method : service.getMethods()) {
            client.call(
                method.getName(), DynamicMessage.getDefaultInstance(method.getInputType()), null);
            RawRpcClient.Response response = client.read();
            String status = "served";
            if (response.header().hasException()) {
              ExceptionResponse exception = response.header().getException();
              String message = exception.getStackTrace();
              if (message.contains("unknown method")) {
                unknown.add(service.getName() + "." + method.getName());
              } else if (message.startsWith(service.getName() + "." + method.getName() + " (")
                  && message.contains(NOT_SUPPORTED)) {
                status = "not supported: " + feature(message);
              }
            }
            table
                .append("| ")
                .append(service.getName())
                .append(" | ")
                .append(method.getName())
                .append(" | ")
                .append(status)
                .append(" |\n");
          }
        }
      }
    }
    assertEquals(List.of(), unknown, "methods answered as unknown");
    String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
    int begin = guide.indexOf(BEGIN);
    int end = guide.indexOf(END);
    assertFalse(begin < 0 || end < begin, GUIDE + " lacks the markers " + BEGIN + " and " + END);
    String documented = guide.substring(begin + BEGIN.length(), end).strip() + "\n";
    if (!documented.equals(table.toString())) {
      Path expected = Path.of("target/protocol-methods-table.md");
      Files.writeString(expected, table.toString(), StandardCharsets.UTF_8);
      assertEquals(
          table.toString(),
          documented,
          GUIDE
              + " does not say what the server does; the table it should hold is in "
              + expected.toAbsolutePath());
    }
  }

  /** The feature a refusal names: the words in parentheses after the method. */
  private static String feature(String message) {
    int open = message.indexOf('(');
    int close = message.indexOf(')', open);
    return open < 0 || close < 0 ? "" : message.substring(open + 1, close);
  }
}
