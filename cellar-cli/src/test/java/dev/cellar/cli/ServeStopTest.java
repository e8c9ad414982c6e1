package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Database;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.schema.Durability;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar serve} in a process of its own, stopped by SIGTERM as an operator stops it: the
 * database is flushed and closed, so rows written without the write-ahead log, which only a flush
 * keeps, are all in store files, and the directory opens again at once (its lock was released).
 */
class ServeStopTest {

  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.UTF_8);
  private static final int ROWS = 200;

  @TempDir Path root;

  @Test
  void sigtermFlushesTheDatabaseAndReleasesItsDirectory() throws Exception {
    Path database = root.resolve("db");
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    ServerProcess server =
        ServerProcess.start(
            "the stop test",
            database,
            256L << 20,
            64L << 20,
            Map.of(),
            "127.0.0.1",
            new PrintStream(output, true, StandardCharsets.UTF_8));
    try (Database client = Cellar.connect(server.address())) {
      client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = client.table("t");
      for (int i = 0; i < ROWS; i++) {
        table.put(
            new Put(row(i))
                .addColumn(FAMILY, QUALIFIER, value(i))
                .setDurability(Durability.SKIP_WAL));
      }
    } finally {
      server.close();
    }
    try (Stream<Path> files = Files.walk(database)) {
      assertTrue(
          files.anyMatch(
              path ->
                  Files.isRegularFile(path)
                      && path.getParent().getFileName().toString().equals("f")),
          "a store file of family f was written at the stop:\n" + output);
    }
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults())) {
      Table table = cellar.table("t");
      for (int i = 0; i < ROWS; i++) {
        try (Result result = table.get(new Get(row(i)))) {
          assertFalse(result.isEmpty(), "row " + i + " survived the stop:\n" + output);
          assertArrayEquals(value(i), result.getValue(FAMILY, QUALIFIER), "row " + i);
        }
      }
    }
  }

  @Test
  void listeningBeyondLoopbackWarnsThatNothingGuardsThePort() throws Exception {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    ServerProcess server =
        ServerProcess.start(
            "the bind warning test",
            root.resolve("open"),
            256L << 20,
            64L << 20,
            Map.of(),
            "0.0.0.0",
            new PrintStream(output, true, StandardCharsets.UTF_8));
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!output.toString(StandardCharsets.UTF_8).contains("no authentication and no TLS")
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    server.close();
    assertTrue(
        output.toString(StandardCharsets.UTF_8).contains("WARNING: listening on")
            && output.toString(StandardCharsets.UTF_8).contains("no authentication and no TLS"),
        output.toString(StandardCharsets.UTF_8));
  }

  private static byte[] row(int i) {
    return String.format("row-%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    return ("value-" + i).getBytes(StandardCharsets.UTF_8);
  }
}
