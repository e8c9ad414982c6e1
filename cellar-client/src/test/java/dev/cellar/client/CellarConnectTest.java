package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Database;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.TableDescriptor;
import dev.cellar.server.CellarServer;
import dev.cellar.server.NettyLeakCheck;
import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code Cellar.connect}: the one line that turns embedded code into a server's client. */
@ExtendWith(NettyLeakCheck.class)
class CellarConnectTest {

  @TempDir Path directory;

  @Test
  void connectGivesTheClientThroughTheDatabaseInterface() throws IOException {
    CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
    try (CellarServer server = CellarServer.start(ServerOptions.from(directory, config), config)) {
      try (Database db = Cellar.connect(server.hostAndPort())) {
        assertInstanceOf(CellarClient.class, db);
        db.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
        db.table("t")
            .put(new Put("r".getBytes()).addColumn("f".getBytes(), "q".getBytes(), "v".getBytes()));
        try (Result result = db.table("t").get(new Get("r".getBytes()))) {
          assertEquals("v", new String(result.value(), StandardCharsets.UTF_8));
        }
      }
    }
    assertThrows(IllegalArgumentException.class, () -> Cellar.connect("no-port"));
  }
}
