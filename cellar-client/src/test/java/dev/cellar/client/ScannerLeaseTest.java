package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.server.NettyLeakCheck;
import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scanner leases: a scanner idle past its lease is dropped by the server, and the client's next
 * reopens the scan after the last row it handed out, so the caller sees every row once, in order;
 * renewing the lease keeps the server's scanner alive instead.
 */
@ExtendWith(NettyLeakCheck.class)
class ScannerLeaseTest {

  private static final int ROWS = 20;

  @TempDir Path directory;

  private ServedDatabase start() throws IOException {
    ServedDatabase served =
        ServedDatabase.start(
            directory, CellarConfig.defaults().with(ServerOptions.SCANNER_TIMEOUT, "300"));
    served.client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      puts.add(new Put(row(i)).addColumn("f".getBytes(), "q".getBytes(), row(i)));
    }
    served.client.table("t").put(puts);
    return served;
  }

  private static byte[] row(int i) {
    return String.format("row-%02d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> readAll(ResultScanner scanner, List<String> into) throws IOException {
    for (Result result : scanner) {
      try (result) {
        into.add(new String(result.row(), StandardCharsets.UTF_8));
      }
    }
    return into;
  }

  private static List<String> expected() {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      rows.add(new String(row(i), StandardCharsets.UTF_8));
    }
    return rows;
  }

  @Test
  void aScanIdlePastItsLeaseReopensAfterTheLastRow() throws Exception {
    try (ServedDatabase served = start()) {
      Table table = served.client.table("t");
      List<String> rows = new ArrayList<>();
      try (ResultScanner scanner = table.scanner(new Scan().setCaching(3))) {
        for (int i = 0; i < 4; i++) {
          try (Result result = scanner.next()) {
            rows.add(new String(result.row(), StandardCharsets.UTF_8));
          }
        }
        Thread.sleep(1200);
        assertEquals(0, served.server.openScanners(), "the server dropped the idle scanner");
        readAll(scanner, rows);
      }
      assertEquals(expected(), rows);
    }
  }

  @Test
  void renewingTheLeaseKeepsTheScannerOpen() throws Exception {
    try (ServedDatabase served = start()) {
      Table table = served.client.table("t");
      List<String> rows = new ArrayList<>();
      try (ResultScanner scanner = table.scanner(new Scan().setCaching(3))) {
        try (Result result = scanner.next()) {
          rows.add(new String(result.row(), StandardCharsets.UTF_8));
        }
        for (int i = 0; i < 8; i++) {
          Thread.sleep(100);
          ((RemoteScanner) scanner).renewLease();
        }
        assertEquals(1, served.server.openScanners());
        readAll(scanner, rows);
      }
      assertEquals(expected(), rows);
      assertEquals(0, served.server.openScanners());
    }
  }

  @Test
  void closingAScannerEarlyClosesItOnTheServer() throws Exception {
    try (ServedDatabase served = start()) {
      try (ResultScanner scanner = served.client.table("t").scanner(new Scan().setCaching(2))) {
        scanner.next().close();
        assertEquals(1, served.server.openScanners());
      }
      long deadline = System.currentTimeMillis() + 5000;
      while (served.server.openScanners() > 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(0, served.server.openScanners());
    }
  }
}
