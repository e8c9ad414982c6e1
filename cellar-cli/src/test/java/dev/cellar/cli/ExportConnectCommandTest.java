package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.TableDescriptor;
import dev.cellar.client.CellarClient;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar export --connect}: while {@code cellar serve} holds the database, the export is
 * asked of the server, which writes it; {@code --dir} on the same database is refused by its lock.
 * Errors are one line and exit code 1.
 */
class ExportConnectCommandTest {

  @TempDir Path root;

  @Test
  void aServedDatabaseExportsThroughTheServerAndNotBesideIt() throws Exception {
    CellarConfig config =
        CellarConfig.defaults()
            .with(ServerOptions.PORT, "0")
            .with("cellar.server.export.dirs", root.resolve("exports").toString());
    Path database = root.resolve("db");
    try (CellarServer server = CellarServer.start(ServerOptions.from(database, config), config);
        CellarClient client = CellarClient.connect(server.hostAndPort())) {
      client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      for (int i = 0; i < 100; i++) {
        client
            .table("t")
            .put(
                new Put(("row-" + i).getBytes(StandardCharsets.UTF_8))
                    .addColumn("f".getBytes(), "q".getBytes(), ("v" + i).getBytes()));
      }
      String address = server.hostAndPort();
      Path out = root.resolve("exports/export");
      CliRun export =
          CliRun.of("export", "--connect", address, "--table", "t", "--out", out.toString());
      assertEquals(0, export.exit(), export::toString);
      assertTrue(
          export
              .out()
              .contains(
                  "exported t to "
                      + out
                      + " (written by "
                      + address
                      + "): 1 families, 1 files, 100 cells"),
          export::toString);
      assertTrue(Files.isDirectory(out.resolve("f")), export::toString);

      CliRun beside =
          CliRun.of(
              "export",
              "--dir",
              database.toString(),
              "--table",
              "t",
              "--out",
              root.resolve("beside").toString());
      assertEquals(1, beside.exit(), beside::toString);
      assertTrue(
          beside.err().startsWith("cellar export: ")
              && beside.err().contains("is in use")
              && beside.err().contains("--connect HOST:PORT"),
          beside::toString);
      assertFalse(beside.err().strip().contains("\n"), beside::toString);

      CliRun missing =
          CliRun.of(
              "export",
              "--connect",
              address,
              "--table",
              "missing",
              "--out",
              root.resolve("exports/missing").toString());
      assertEquals(1, missing.exit(), missing::toString);
      assertTrue(
          missing.err().startsWith("cellar export: ") && missing.err().contains("missing"),
          missing::toString);
      assertFalse(missing.err().strip().contains("\n"), missing::toString);
    }
  }

  @Test
  void theServerWritesExportsOnlyWhereItsOperatorSaid() throws Exception {
    Path database = root.resolve("db");
    Path exports = root.resolve("exports");
    for (String allowed : new String[] {null, exports.toString()}) {
      CellarConfig config = CellarConfig.defaults().with(ServerOptions.PORT, "0");
      if (allowed != null) {
        config = config.with("cellar.server.export.dirs", allowed);
      }
      try (CellarServer server = CellarServer.start(ServerOptions.from(database, config), config);
          CellarClient client = CellarClient.connect(server.hostAndPort())) {
        if (!client.admin().tableExists("t")) {
          client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
        }
        for (Path out :
            new Path[] {root.resolve("elsewhere"), exports.resolve("../elsewhere"), exports}) {
          CliRun refused =
              CliRun.of(
                  "export",
                  "--connect",
                  server.hostAndPort(),
                  "--table",
                  "t",
                  "--out",
                  out.toString());
          assertEquals(1, refused.exit(), refused::toString);
          assertTrue(
              refused
                  .err()
                  .contains(allowed == null ? "export through the server is off" : "is not under"),
              refused::toString);
          assertTrue(refused.err().contains("cellar.server.export.dirs"), refused::toString);
        }
        assertFalse(Files.exists(root.resolve("elsewhere")), "nothing was written outside");
      }
    }
  }
}
