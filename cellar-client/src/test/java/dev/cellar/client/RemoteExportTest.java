package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.BulkLoad;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.server.CellarServer;
import dev.cellar.server.NettyLeakCheck;
import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Export while serving: {@code cellar serve} holds the database, a client thread keeps writing rows
 * through it, and another client asks the server for an export (HBase's master coprocessor endpoint
 * call). The export is a point in time: loaded into a new database it holds rows 0 to k for some k,
 * each with both families, at least every row acknowledged before the call and fewer than were
 * written by the end. Refusals come back as one line: no such table, an output directory that is
 * not empty.
 */
@ExtendWith(NettyLeakCheck.class)
class RemoteExportTest {

  @TempDir Path root;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theServerExportsAPointInTimeWhileAClientWrites() throws Exception {
    CellarConfig config =
        CellarConfig.defaults()
            .with(ServerOptions.PORT, "0")
            .with("hbase.hregion.memstore.flush.size", "262144")
            .with("cellar.server.export.dirs", root.toString());
    Path out = root.resolve("export");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger written = new AtomicInteger();
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    int acknowledgedBeforeExport;
    RemoteExport.Result result;
    try (CellarServer server =
            CellarServer.start(ServerOptions.from(root.resolve("db"), config), config);
        CellarClient writerClient = CellarClient.connect(server.hostAndPort());
        CellarClient exporter = CellarClient.connect(server.hostAndPort())) {
      writerClient
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
      Table table = writerClient.table("t");
      Thread writer =
          Thread.ofPlatform()
              .name("remote-export-writer")
              .start(
                  () -> {
                    try {
                      while (!stop.get()) {
                        int i = written.get();
                        table.put(
                            new Put(bytes(String.format("row-%07d", i)))
                                .addColumn(bytes("a"), bytes("q"), bytes("a" + i))
                                .addColumn(bytes("b"), bytes("q"), bytes("b" + i)));
                        written.incrementAndGet();
                      }
                    } catch (Throwable e) {
                      writerFailure.set(e);
                    }
                  });
      while (written.get() < 1000 && writerFailure.get() == null) {
        Thread.sleep(1);
      }
      acknowledgedBeforeExport = written.get();
      result = exporter.exports().export("t", out.toString(), List.of(bytes("row-0000500")));
      int after = written.get();
      while (written.get() < after + 200 && writerFailure.get() == null) {
        Thread.sleep(1);
      }
      stop.set(true);
      writer.join();
      assertEquals(null, writerFailure.get(), "the writer went on through the export");

      IOException notEmpty =
          assertThrows(
              IOException.class, () -> exporter.exports().export("t", out.toString(), List.of()));
      assertTrue(notEmpty.getMessage().contains("is not empty"), notEmpty.getMessage());
      IOException missing =
          assertThrows(
              IOException.class,
              () -> exporter.exports().export("missing", root.resolve("x").toString(), List.of()));
      assertTrue(missing.getMessage().contains("missing"), missing.getMessage());
    }
    assertEquals(
        List.of("a", "b"), result.families().stream().map(RemoteExport.Family::family).toList());
    for (RemoteExport.Family family : result.families()) {
      assertEquals(2, family.files().size(), "cut at the split key: " + family);
      for (String file : family.files()) {
        assertTrue(Files.isRegularFile(Path.of(file)), file);
      }
    }
    assertTrue(
        result.progress().stream().anyMatch(line -> line.contains("family a")),
        result.progress().toString());

    try (Cellar target = Cellar.open(root.resolve("target"), CellarConfig.defaults())) {
      BulkLoad.load(target, "t", out, false, line -> {});
      List<String> rows = new ArrayList<>();
      try (ResultScanner scanner = target.table("t").scanner(new Scan())) {
        for (Result row : scanner) {
          try (row) {
            rows.add(
                new String(row.row(), StandardCharsets.UTF_8)
                    + " "
                    + new String(row.getValue(bytes("a"), bytes("q")), StandardCharsets.UTF_8)
                    + " "
                    + new String(row.getValue(bytes("b"), bytes("q")), StandardCharsets.UTF_8));
          }
        }
      }
      assertTrue(
          rows.size() >= acknowledgedBeforeExport && rows.size() < written.get(),
          rows.size()
              + " rows exported; "
              + acknowledgedBeforeExport
              + " acknowledged before the"
              + " export, "
              + written.get()
              + " in all");
      long cells = result.families().stream().mapToLong(RemoteExport.Family::cells).sum();
      assertEquals(2L * rows.size(), cells);
      for (int i = 0; i < rows.size(); i++) {
        assertEquals(String.format("row-%07d a%d b%d", i, i, i), rows.get(i));
      }
    }
  }
}
