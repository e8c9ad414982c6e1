package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.RowScanner;
import dev.cellar.RowView;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Cell;
import dev.cellar.server.NettyLeakCheck;
import dev.cellar.server.ServerOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows wider than a Scan call's size come from the server in parts flagged partial (the client
 * takes partial results, as HBase's does); the client puts them together, so its scans, as results
 * and as row views, forward, reversed and with a limit, return the rows the server's embedded
 * database returns.
 */
@ExtendWith(NettyLeakCheck.class)
class PartialRowsTest {

  private static final byte[] F = bytes("f");
  private static final byte[] G = bytes("g");

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void rowsSplitByTheServerComeBackWhole() throws IOException {
    try (ServedDatabase served =
        ServedDatabase.start(
            directory,
            CellarConfig.defaults().with(ServerOptions.SCANNER_MAX_RESULT_SIZE, "20000"))) {
      served
          .client
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("f"), ColumnFamilyDescriptor.of("g")));
      Table table = served.client.table("t");
      for (int r = 0; r < 6; r++) {
        Put put = new Put(bytes("row-" + r));
        int cells = r % 2 == 0 ? 150 : 2;
        for (int c = 0; c < cells; c++) {
          byte[] value = new byte[1000];
          Arrays.fill(value, (byte) (r * 31 + c));
          put.addColumn(c % 3 == 0 ? G : F, bytes(String.format("q%03d", c)), value);
        }
        table.put(put);
      }
      dev.cellar.Table embedded = served.server.database().table("t");
      List<Supplier<Scan>> scans =
          List.of(
              Scan::new,
              () -> new Scan().setReversed(true),
              () -> new Scan().setLimit(3),
              () -> new Scan().withStartRow(bytes("row-1")));
      for (Supplier<Scan> scan : scans) {
        List<List<String>> expected = results(embedded.scanner(scan.get()));
        assertEquals(expected, results(table.scanner(scan.get())));
        assertEquals(expected, views(table.rowScanner(scan.get())));
        assertTrue(expected.stream().anyMatch(row -> row.size() == 150), "a wide row");
      }
    }
  }

  private static List<List<String>> results(ResultScanner scanner) throws IOException {
    List<List<String>> rows = new ArrayList<>();
    try (scanner) {
      for (Result result : scanner) {
        try (result) {
          rows.add(describe(result.rawCells()));
        }
      }
    }
    return rows;
  }

  private static List<List<String>> views(RowScanner scanner) throws IOException {
    List<List<String>> rows = new ArrayList<>();
    try (scanner) {
      for (RowView view = scanner.nextView(); view != null; view = scanner.nextView()) {
        rows.add(describe(view.cells()));
      }
    }
    return rows;
  }

  private static List<String> describe(List<? extends Cell> cells) {
    List<String> described = new ArrayList<>();
    for (Cell cell : cells) {
      described.add(
          new String(cell.rowArray(), StandardCharsets.UTF_8)
              + "/"
              + new String(cell.familyArray(), StandardCharsets.UTF_8)
              + ":"
              + new String(cell.qualifierArray(), StandardCharsets.UTF_8)
              + "="
              + Arrays.hashCode(cell.valueArray()));
    }
    return described;
  }
}
