package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.modules.ModulePathFixture;
import dev.cellar.modules.ModulePathFixture.Compilation;
import dev.cellar.server.CellarServer;
import dev.cellar.server.NettyLeakCheck;
import dev.cellar.server.ServerOptions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * dev.cellar.client and dev.cellar.server on the module path: a consumer that requires only
 * dev.cellar.core reaches a server through {@code Cellar.connect}, the core finding the client as
 * its {@code RemoteConnector} service; a consumer of dev.cellar.server serves a database and
 * connects to it; the client's RPC layer stays out of a consumer's reach.
 */
@ExtendWith(NettyLeakCheck.class)
class ClientModuleTest {

  private static final String CONSUMER =
      """
      package consumer;

      import dev.cellar.Cellar;
      import dev.cellar.ColumnFamilyDescriptor;
      import dev.cellar.Database;
      import dev.cellar.Get;
      import dev.cellar.Put;
      import dev.cellar.Result;
      import dev.cellar.TableDescriptor;
      import java.nio.charset.StandardCharsets;

      public class Main {
        public static void main(String[] args) throws Exception {
          byte[] f = "f".getBytes(StandardCharsets.UTF_8);
          byte[] q = "q".getBytes(StandardCharsets.UTF_8);
          byte[] row = "row".getBytes(StandardCharsets.UTF_8);
          try (Database db = Cellar.connect(args[0])) {
            db.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
            byte[] value = "served".getBytes(StandardCharsets.UTF_8);
            db.table("t").put(new Put(row).addColumn(f, q, value));
            try (Result result = db.table("t").get(new Get(row))) {
              System.out.println("read " + new String(result.getValue(f, q), StandardCharsets.UTF_8)
                  + " through " + db.getClass().getModule().getName());
            }
          }
        }
      }
      """;

  private static final String SERVING_CONSUMER =
      """
      package consumer;

      import dev.cellar.Cellar;
      import dev.cellar.CellarConfig;
      import dev.cellar.ColumnFamilyDescriptor;
      import dev.cellar.Database;
      import dev.cellar.TableDescriptor;
      import dev.cellar.server.CellarServer;
      import dev.cellar.server.ServerOptions;
      import java.nio.file.Path;

      public class Main {
        public static void main(String[] args) throws Exception {
          CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
          try (CellarServer server = CellarServer.start(ServerOptions.from(Path.of(args[0]),
              config), config);
              Database db = Cellar.connect(server.hostAndPort())) {
            db.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
            System.out.println("served " + db.admin().listTables());
          }
        }
      }
      """;

  @TempDir Path directory;

  @Test
  void aConsumerModuleServesADatabase() throws Exception {
    ModulePathFixture modules =
        ModulePathFixture.of(directory, "dev.cellar.server", "dev.cellar.client");
    Compilation consumer =
        modules.compile(
            "consumer",
            Map.of(
                "module-info.java",
                ModulePathFixture.moduleInfo("consumer", "dev.cellar.server"),
                "consumer/Main.java",
                SERVING_CONSUMER));
    assertTrue(consumer.compiled(), consumer.messages());
    String printed =
        modules.run(consumer, "consumer", "consumer.Main", directory.resolve("db").toString());
    assertTrue(printed.contains("served [t]"), printed);
  }

  @Test
  void aConsumerModuleConnectsThroughTheClientModule() throws Exception {
    ModulePathFixture modules =
        ModulePathFixture.of(directory, "dev.cellar.core", "dev.cellar.client");
    Compilation consumer =
        modules.compile(
            "consumer",
            Map.of(
                "module-info.java",
                ModulePathFixture.moduleInfo("consumer", "dev.cellar.core"),
                "consumer/Main.java",
                CONSUMER));
    assertTrue(consumer.compiled(), consumer.messages());
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server =
        CellarServer.start(ServerOptions.from(directory.resolve("db"), config), config)) {
      String printed = modules.run(consumer, "consumer", "consumer.Main", server.hostAndPort());
      assertTrue(printed.contains("read served through dev.cellar.client"), printed);
    }
  }

  @Test
  void theClientsRpcLayerIsNotVisibleToAConsumer() throws Exception {
    Compilation consumer =
        ModulePathFixture.of(directory, "dev.cellar.client")
            .compile(
                "consumer",
                Map.of(
                    "module-info.java",
                    ModulePathFixture.moduleInfo("consumer", "dev.cellar.client"),
                    "consumer/Main.java",
                    """
                package consumer;

                import dev.cellar.client.rpc.RpcClient;

                public class Main {
                  RpcClient rpc;
                }
                """));
    assertFalse(consumer.compiled());
    assertTrue(
        consumer
            .messages()
            .contains(
                "package dev.cellar.client.rpc is declared in module dev.cellar.client, which does not"
                    + " export it"),
        consumer.messages());
  }
}
