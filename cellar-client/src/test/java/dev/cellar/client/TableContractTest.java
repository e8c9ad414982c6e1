package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Database;
import dev.cellar.Delete;
import dev.cellar.Get;
import dev.cellar.Mutation;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.RowReader;
import dev.cellar.RowScanner;
import dev.cellar.RowView;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.TableNotFoundException;
import dev.cellar.cell.Cell;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SubstringComparator;
import dev.cellar.filter.ValueFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of {@link Table} and {@link dev.cellar.Admin} that code relies on, run against each
 * way of reaching a database: embedded ({@link EmbeddedTableContractTest}) and through {@link
 * CellarClient} against an in-process server ({@link RemoteTableContractTest}), and embedded on
 * HDFS ({@code HdfsTableContractTest}, module {@code cellar-hdfs}). The same assertions hold for
 * all.
 */
abstract class TableContractTest {

  static final byte[] F = bytes("f");
  static final byte[] G = bytes("g");

  Database database;
  Table table;

  /** Opens the database under test; closed after each test. */
  abstract Database open() throws IOException;

  @BeforeEach
  void createTable() throws IOException {
    database = open();
    database
        .admin()
        .createTable(
            TableDescriptor.of(
                "t",
                ColumnFamilyDescriptor.of("f", Map.of("VERSIONS", "3")),
                ColumnFamilyDescriptor.of("g")));
    table = database.table("t");
  }

  @AfterEach
  void close() throws IOException {
    database.close();
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String text(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  private static String row(int i) {
    return String.format("row-%03d", i);
  }

  private void putRows(int count) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      puts.add(
          new Put(bytes(row(i)))
              .addColumn(F, bytes("a"), bytes("v" + i))
              .addColumn(G, bytes("b"), bytes(i % 2 == 0 ? "even" : "odd")));
    }
    table.put(puts);
  }

  private List<String> scanRows(Scan scan) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(scan)) {
      for (Result result : scanner) {
        try (result) {
          rows.add(text(result.row()));
        }
      }
    }
    return rows;
  }

  @Test
  void putThenGetReturnsTheValue() throws IOException {
    table.put(new Put(bytes("r")).addColumn(F, bytes("q"), bytes("value")));
    try (Result result = table.get(new Get(bytes("r")))) {
      assertEquals("value", text(result.getValue(F, bytes("q"))));
      assertEquals("r", text(result.row()));
      assertEquals(1, result.size());
    }
    try (Result missing = table.get(new Get(bytes("nothing")))) {
      assertTrue(missing.isEmpty());
    }
  }

  @Test
  void resultCellsAreReadableUntilClosed() throws IOException {
    table.put(new Put(bytes("r")).addColumn(F, bytes("q"), bytes("x".repeat(5000))));
    Result result = table.get(new Get(bytes("r")));
    Cell cell = result.rawCells().get(0);
    assertEquals(5000, cell.valueLength());
    result.close();
    assertThrows(IllegalStateException.class, result::rawCells);
  }

  @Test
  void versionsAndTimeRangesSelectCells() throws IOException {
    for (long ts = 1; ts <= 4; ts++) {
      table.put(new Put(bytes("r")).addColumn(F, bytes("q"), ts, bytes("v" + ts)));
    }
    try (Result result = table.get(new Get(bytes("r")).readVersions(5))) {
      assertEquals(List.of("v4", "v3", "v2"), values(result));
    }
    try (Result result = table.get(new Get(bytes("r")).readVersions(5).setTimeRange(2, 4))) {
      assertEquals(List.of("v3", "v2"), values(result));
    }
  }

  private static List<String> values(Result result) {
    return result.rawCells().stream().map(c -> text(c.valueArray())).toList();
  }

  @Test
  void deletesOfEveryKindHideWhatTheyCover() throws IOException {
    for (long ts = 1; ts <= 3; ts++) {
      table.put(
          new Put(bytes("r"))
              .addColumn(F, bytes("a"), ts, bytes("a" + ts))
              .addColumn(F, bytes("b"), ts, bytes("b" + ts))
              .addColumn(G, bytes("c"), ts, bytes("c" + ts)));
    }
    table.delete(new Delete(bytes("r")).addColumn(F, bytes("a"), 3));
    try (Result result = table.get(new Get(bytes("r")).addColumn(F, bytes("a")))) {
      assertEquals("a2", text(result.value()));
    }
    table.delete(new Delete(bytes("r")).addColumns(F, bytes("b"), 2));
    try (Result result = table.get(new Get(bytes("r")).addColumn(F, bytes("b")).readVersions(3))) {
      assertEquals(List.of("b3"), values(result));
    }
    table.delete(new Delete(bytes("r")).addFamily(G));
    try (Result result = table.get(new Get(bytes("r")).addFamily(G))) {
      assertTrue(result.isEmpty());
    }
    table.delete(new Delete(bytes("r")));
    try (Result result = table.get(new Get(bytes("r")))) {
      assertTrue(result.isEmpty());
    }
  }

  @Test
  void multiGetAnswersInOrderWithEmptyResultsForMissingRows() throws IOException {
    putRows(5);
    Result[] results =
        table.get(
            List.of(
                new Get(bytes(row(3))),
                new Get(bytes("none")),
                new Get(bytes(row(0))).addFamily(G)));
    try {
      assertEquals(3, results.length);
      assertEquals("v3", text(results[0].getValue(F, bytes("a"))));
      assertTrue(results[1].isEmpty());
      assertEquals(1, results[2].size());
      assertEquals("even", text(results[2].value()));
    } finally {
      for (Result result : results) {
        result.close();
      }
    }
  }

  @Test
  void batchAppliesPutsAndDeletesInOrder() throws IOException {
    putRows(3);
    List<Mutation> batch =
        List.of(
            new Delete(bytes(row(1))),
            new Put(bytes(row(5))).addColumn(F, bytes("a"), bytes("new")),
            new Put(bytes(row(0))).addColumn(F, bytes("a"), bytes("changed")));
    table.batch(batch);
    assertEquals(List.of(row(0), row(2), row(5)), scanRows(new Scan()));
    try (Result result = table.get(new Get(bytes(row(0))).addColumn(F, bytes("a")))) {
      assertEquals("changed", text(result.value()));
    }
  }

  @Test
  void scansHonourBoundsDirectionLimitAndCaching() throws IOException {
    putRows(30);
    assertEquals(30, scanRows(new Scan()).size());
    assertEquals(
        List.of(row(5), row(6), row(7)),
        scanRows(new Scan().withStartRow(bytes(row(5))).withStopRow(bytes(row(8)))));
    assertEquals(
        List.of(row(5), row(6), row(7), row(8)),
        scanRows(new Scan().withStartRow(bytes(row(5))).withStopRow(bytes(row(8)), true)));
    assertEquals(
        List.of(row(8), row(7), row(6)),
        scanRows(
            new Scan().setReversed(true).withStartRow(bytes(row(8))).withStopRow(bytes(row(5)))));
    assertEquals(List.of(row(0), row(1), row(2), row(3)), scanRows(new Scan().setLimit(4)));
    List<String> all = scanRows(new Scan().setCaching(2));
    assertEquals(30, all.size());
    assertEquals(row(29), all.get(29));
    assertEquals(
        List.of(row(10), row(11), row(12), row(13), row(14)),
        scanRows(new Scan().withStartRow(bytes(row(10))).setCaching(2).setLimit(5)));
  }

  @Test
  void aScannerClosedEarlyReleasesItsRows() throws IOException {
    putRows(50);
    try (ResultScanner scanner = table.scanner(new Scan().setCaching(10))) {
      try (Result first = scanner.next()) {
        assertEquals(row(0), text(first.row()));
      }
    }
  }

  @Test
  void filtersSelectRowsAndCells() throws IOException {
    putRows(20);
    assertEquals(
        List.of(row(10), row(11), row(12)),
        scanRows(new Scan().setFilter(new PrefixFilter(bytes("row-01"))).setLimit(3)));
    SingleColumnValueFilter odd =
        new SingleColumnValueFilter(
            G, bytes("b"), CompareOperator.EQUAL, new BinaryComparator(bytes("odd")));
    odd.setFilterIfMissing(true);
    assertEquals(10, scanRows(new Scan().setFilter(odd)).size());
    assertEquals(
        List.of(row(1), row(3)),
        scanRows(
            new Scan()
                .setFilter(
                    new FilterList(FilterList.Operator.MUST_PASS_ALL, odd, new PageFilter(2)))));
    assertEquals(
        List.of(row(7)),
        scanRows(
            new Scan()
                .setFilter(new ValueFilter(CompareOperator.EQUAL, new SubstringComparator("V7")))));
    try (Result result =
        table.get(
            new Get(bytes(row(4)))
                .setFilter(
                    new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(bytes("even")))))) {
      assertEquals(1, result.size());
      assertEquals("even", text(result.value()));
    }
  }

  @Test
  void checkAndMutateAppliesOnlyWhenTheConditionHolds() throws IOException {
    Put first = new Put(bytes("r")).addColumn(F, bytes("q"), bytes("1"));
    assertTrue(table.checkAndMutate(F, bytes("q"), CompareOperator.EQUAL, null, first));
    assertFalse(table.checkAndMutate(F, bytes("q"), CompareOperator.EQUAL, null, first));
    Put second = new Put(bytes("r")).addColumn(F, bytes("q"), bytes("2"));
    assertFalse(table.checkAndMutate(F, bytes("q"), CompareOperator.EQUAL, bytes("9"), second));
    assertTrue(table.checkAndMutate(F, bytes("q"), CompareOperator.EQUAL, bytes("1"), second));
    assertTrue(
        table.checkAndMutate(
            F, bytes("q"), CompareOperator.EQUAL, bytes("2"), new Delete(bytes("r"))));
    try (Result result = table.get(new Get(bytes("r")))) {
      assertTrue(result.isEmpty());
    }
  }

  @Test
  void checkAndMutateTakesAnyComparator() throws IOException {
    byte[] row = bytes("c");
    table.put(new Put(row).addColumn(F, bytes("n"), dev.cellar.cell.Bytes.toBytes(42L)));
    Put a = new Put(row).addColumn(F, bytes("a"), bytes("1"));
    assertTrue(
        table.checkAndMutateWithComparator(
            F, bytes("n"), CompareOperator.LESS, new dev.cellar.filter.LongComparator(41), a));
    Put b = new Put(row).addColumn(F, bytes("b"), bytes("1"));
    assertFalse(
        table.checkAndMutateWithComparator(
            F,
            bytes("n"),
            CompareOperator.EQUAL,
            new dev.cellar.filter.BitComparator(
                new byte[8], dev.cellar.filter.BitComparator.BitwiseOp.AND),
            b));
    Put c = new Put(row).addColumn(F, bytes("c"), bytes("1"));
    assertTrue(
        table.checkAndMutateWithComparator(
            F, bytes("absent"), CompareOperator.EQUAL, new dev.cellar.filter.NullComparator(), c));
    try (Result result = table.get(new Get(row))) {
      assertEquals(3, result.size());
    }
  }

  @Test
  void adminCreatesListsDescribesAndDropsTables() throws IOException {
    assertTrue(database.admin().tableExists("t"));
    assertFalse(database.admin().tableExists("u"));
    database
        .admin()
        .createTable(
            TableDescriptor.of(
                "u", ColumnFamilyDescriptor.of("x", Map.of("VERSIONS", "5", "BLOCKSIZE", "8192"))));
    assertEquals(List.of("t", "u"), database.admin().listTables());
    TableDescriptor described = database.admin().describe("u");
    assertEquals("u", described.name());
    assertEquals(5, described.family("x").maxVersions());
    assertEquals(8192, described.family("x").blockSize());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            database.admin().createTable(TableDescriptor.of("u", ColumnFamilyDescriptor.of("x"))));
    database.table("u").put(new Put(bytes("r")).addColumn(bytes("x"), bytes("q"), bytes("v")));
    database.admin().dropTable("u");
    assertEquals(List.of("t"), database.admin().listTables());
    assertThrows(TableNotFoundException.class, () -> database.table("u"));
    assertThrows(TableNotFoundException.class, () -> database.admin().describe("u"));
  }

  @Test
  void aRowReaderReadsRowsIntoItsOneViewUntilClosed() throws IOException {
    putRows(5);
    table.put(new Put(bytes(row(1))).addColumn(F, bytes("a"), 5L, bytes("older")));
    byte[] buffer = new byte[16];
    Get get = new Get(bytes(row(0))).addFamily(F).readVersions(3);
    RowView view;
    try (RowReader reader = table.rowReader()) {
      for (int i = 0; i < 5; i++) {
        view = reader.getView(get.setRow(bytes(row(i))));
        int length = view.copyValue(F, bytes("a"), buffer, 0);
        assertEquals("v" + i, new String(buffer, 0, length, StandardCharsets.UTF_8));
        assertEquals(row(i), text(view.row()));
        assertEquals(i == 1 ? 2 : 1, view.size(), "versions of row " + i);
        assertEquals(-1, view.valueLength(G, bytes("b")), "the Get reads family f only");
      }
      assertTrue(reader.getView(get.setRow(bytes(row(9)))).isEmpty(), "a missing row");
      view = reader.getView(new Get(bytes(row(2))));
      assertEquals("even", text(view.getValue(G, bytes("b"))));
    }
    RowView closed = view;
    assertThrows(IllegalStateException.class, closed::size);
  }

  @Test
  void aRowScannerReadsEveryRowOfTheScanIntoItsOneView() throws IOException {
    putRows(25);
    Scan scan = new Scan().withStartRow(bytes(row(3))).withStopRow(bytes(row(21))).setCaching(4);
    List<String> rows = new ArrayList<>();
    List<String> values = new ArrayList<>();
    try (RowScanner scanner = table.rowScanner(scan)) {
      for (RowView view = scanner.nextView(); view != null; view = scanner.nextView()) {
        rows.add(text(view.row()));
        values.add(text(view.getValue(G, bytes("b"))));
      }
      assertNull(scanner.nextView(), "the end stays the end");
    }
    assertEquals(
        scanRows(new Scan().withStartRow(bytes(row(3))).withStopRow(bytes(row(21)))), rows);
    assertEquals(18, rows.size());
    assertEquals("odd", values.get(0));
    try (RowScanner limited =
        table.rowScanner(new Scan().setCaching(2).setLimit(5).setReversed(true))) {
      List<String> seen = new ArrayList<>();
      for (RowView view = limited.nextView(); view != null; view = limited.nextView()) {
        seen.add(text(view.row()));
      }
      assertEquals(List.of(row(24), row(23), row(22), row(21), row(20)), seen);
    }
    RowScanner early = table.rowScanner(new Scan().setCaching(3));
    assertEquals(row(0), text(early.nextView().row()));
    early.close();
    assertThrows(IllegalStateException.class, early::nextView);
  }

  @Test
  void alterAddsModifiesAndDeletesFamiliesOnline() throws IOException {
    putRows(4);
    database.admin().addFamily("t", ColumnFamilyDescriptor.of("h", Map.of("VERSIONS", "2")));
    assertEquals(2, database.admin().describe("t").family("h").maxVersions());
    table.put(new Put(bytes("r")).addColumn(bytes("h"), bytes("q"), bytes("in h")));
    try (Result result = table.get(new Get(bytes("r")))) {
      assertEquals("in h", text(result.getValue(bytes("h"), bytes("q"))));
    }

    for (long version = 1; version <= 3; version++) {
      table.put(new Put(bytes("v")).addColumn(G, bytes("q"), version, bytes("g" + version)));
    }
    Get allVersions = new Get(bytes("v")).addFamily(G).readVersions(5);
    try (Result result = table.get(allVersions)) {
      assertEquals(1, result.size());
    }
    database
        .admin()
        .modifyFamily(
            "t",
            ColumnFamilyDescriptor.of(
                "g",
                Map.of("VERSIONS", "4", "COMPRESSION", "GZ", "DATA_BLOCK_ENCODING", "FAST_DIFF")));
    assertEquals(4, database.admin().describe("t").family("g").maxVersions());
    try (Result result = table.get(allVersions)) {
      assertEquals(3, result.size(), "the versions kept show once VERSIONS allows them");
    }
    database.admin().flush("t");
    database.admin().majorCompact("t");
    try (Result result = table.get(allVersions)) {
      assertEquals(3, result.size());
    }

    database.admin().deleteFamily("t", "h");
    assertEquals(List.of("f", "g"), familyNames(database.admin().describe("t")));
    assertThrows(
        IllegalArgumentException.class,
        () -> table.put(new Put(bytes("r")).addColumn(bytes("h"), bytes("q"), bytes("gone"))));
    try (Result result = table.get(new Get(bytes("r")))) {
      assertTrue(result.isEmpty(), "h's cells went with h");
    }

    database
        .admin()
        .modifyTable(
            TableDescriptor.of(
                "t",
                ColumnFamilyDescriptor.of("f", Map.of("VERSIONS", "3")),
                ColumnFamilyDescriptor.of("k")));
    assertEquals(List.of("f", "k"), familyNames(database.admin().describe("t")));
    assertEquals(4, scanRows(new Scan()).size(), "f's rows stay");

    IllegalArgumentException exists =
        assertThrows(
            IllegalArgumentException.class,
            () -> database.admin().addFamily("t", ColumnFamilyDescriptor.of("f")));
    assertTrue(exists.getMessage().contains("has family f already"), exists.getMessage());
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class, () -> database.admin().deleteFamily("t", "nope"));
    assertTrue(missing.getMessage().contains("has no family nope"), missing.getMessage());
    assertThrows(
        TableNotFoundException.class,
        () -> database.admin().addFamily("missing", ColumnFamilyDescriptor.of("x")));
  }

  private static List<String> familyNames(TableDescriptor descriptor) {
    return descriptor.families().stream().map(ColumnFamilyDescriptor::name).toList();
  }

  @Test
  void aDroppedAndRecreatedTableIsEmptyAndUsable() throws IOException {
    putRows(3);
    database.admin().dropTable("t");
    database.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    Table after = database.table("t");
    after.put(new Put(bytes("x")).addColumn(F, bytes("q"), bytes("v")));
    assertEquals(List.of("x"), scanRowsOf(after));
  }

  private static List<String> scanRowsOf(Table table) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(new Scan())) {
      for (Result result : scanner) {
        try (result) {
          rows.add(text(result.row()));
        }
      }
    }
    return rows;
  }

  @Test
  void flushesAndCompactionsKeepTheData() throws IOException {
    putRows(10);
    database.admin().flush("t");
    table.delete(new Delete(bytes(row(3))));
    putRows(2);
    database.admin().flush("t");
    database.admin().compact("t");
    database.admin().majorCompact("t");
    List<String> rows = scanRows(new Scan());
    assertEquals(9, rows.size());
    assertFalse(rows.contains(row(3)));
  }

  @Test
  void aWriteToAMissingFamilyIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> table.put(new Put(bytes("r")).addColumn(bytes("nope"), bytes("q"), bytes("v"))));
  }

  @Test
  void aMissingTableIsReported() {
    assertThrows(TableNotFoundException.class, () -> database.table("missing"));
  }
}
