package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.CompareOperator;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * HBase's own client (2.6.1, unmodified) against an in-process {@code cellar serve}: every call is
 * made through HBase's API, the same operations are made on an embedded Cellar database, and what
 * the client reads must equal what the embedded database reads. Timestamps are explicit wherever a
 * comparison depends on them, so both sides hold the same versions.
 */
@ExtendWith(TestSeedExtension.class)
class HBaseClientInteropTest extends ServedComparison {

  /** Writes the same random rows, versions and families on both sides. */
  private void load(int rows, TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    List<Put> puts = new ArrayList<>();
    List<dev.cellar.Put> mirror = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      byte[] key = bytes(row(i));
      Put put = new Put(key);
      dev.cellar.Put twin = new dev.cellar.Put(key);
      int columns = 1 + random.nextInt(3);
      for (int c = 0; c < columns; c++) {
        byte[] qualifier = bytes("q" + c);
        int versions = 1 + random.nextInt(3);
        for (int v = 1; v <= versions; v++) {
          byte[] value = bytes("v" + i + "-" + c + "-" + v + "-" + random.nextInt(1000));
          put.addColumn(F, qualifier, v * 10L, value);
          twin.addColumn(F, qualifier, v * 10L, value);
        }
      }
      if (random.nextBoolean()) {
        byte[] value = bytes("g" + i);
        put.addColumn(G, bytes("x"), 5L, value);
        twin.addColumn(G, bytes("x"), 5L, value);
      }
      puts.add(put);
      mirror.add(twin);
    }
    table.put(puts);
    expected.put(mirror);
  }

  private List<String> scanned(Scan scan) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result result : scanner) {
        rows.addAll(cells(result));
        rows.add("|");
      }
    }
    return rows;
  }

  private List<String> scannedEmbedded(dev.cellar.Scan scan) throws IOException {
    List<String> rows = new ArrayList<>();
    try (dev.cellar.ResultScanner scanner = expected.scanner(scan)) {
      for (dev.cellar.Result result : scanner) {
        try (result) {
          rows.addAll(cells(result));
          rows.add("|");
        }
      }
    }
    return rows;
  }

  private List<String> got(Get get) throws IOException {
    return cells(table.get(get));
  }

  private List<String> gotEmbedded(dev.cellar.Get get) throws IOException {
    try (dev.cellar.Result result = expected.get(get)) {
      return cells(result);
    }
  }

  @Test
  void adminCallsSeeTheTablesAndTheirStates() throws IOException {
    try (Admin admin = served.connection.getAdmin()) {
      assertTrue(admin.tableExists(NAME));
      assertFalse(admin.tableExists(TableName.valueOf("missing")));
      assertEquals(List.of(NAME), List.of(admin.listTableNames()));
      assertEquals(5, admin.getDescriptor(NAME).getColumnFamily(F).getMaxVersions());
      assertTrue(admin.isTableEnabled(NAME));
      assertTrue(admin.isTableAvailable(NAME));
      assertEquals(1, admin.getRegions(NAME).size());
      assertThrows(
          TableNotFoundException.class, () -> admin.getDescriptor(TableName.valueOf("missing")));

      admin.disableTable(NAME);
      assertTrue(admin.isTableDisabled(NAME));
      assertThrows(IOException.class, () -> table.get(new Get(bytes("r"))));
      admin.enableTable(NAME);
      table.put(new Put(bytes("r")).addColumn(F, bytes("q"), bytes("v")));
      admin.disableTable(NAME);
      admin.truncateTable(NAME, false);
      assertTrue(admin.isTableEnabled(NAME));
      assertTrue(table.get(new Get(bytes("r"))).isEmpty(), "truncate emptied the table");

      TableName other = TableName.valueOf("other");
      admin.createTable(
          TableDescriptorBuilder.newBuilder(other)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("c"))
              .build());
      assertThrows(
          IOException.class,
          () ->
              admin.createTable(
                  TableDescriptorBuilder.newBuilder(other)
                      .setColumnFamily(ColumnFamilyDescriptorBuilder.of("c"))
                      .build()));
      admin.disableTable(other);
      admin.deleteTable(other);
      assertFalse(admin.tableExists(other));
    }
  }

  @Test
  void alterThroughHBaseAdminChangesTheFamiliesOnline() throws IOException {
    byte[] h = bytes("h");
    try (Admin admin = served.connection.getAdmin()) {
      admin.addColumnFamily(
          NAME, ColumnFamilyDescriptorBuilder.newBuilder(h).setMaxVersions(3).build());
      assertEquals(3, admin.getDescriptor(NAME).getColumnFamily(h).getMaxVersions());
      table.put(new Put(bytes("r")).addColumn(h, bytes("q"), bytes("in h")));
      assertArrayEquals(bytes("in h"), table.get(new Get(bytes("r"))).getValue(h, bytes("q")));

      for (long version = 1; version <= 3; version++) {
        table.put(new Put(bytes("r")).addColumn(G, bytes("q"), version, bytes("g" + version)));
      }
      assertEquals(1, table.get(new Get(bytes("r")).addFamily(G).readVersions(5)).size());
      admin.modifyColumnFamily(
          NAME,
          ColumnFamilyDescriptorBuilder.newBuilder(G)
              .setMaxVersions(4)
              .setCompressionType(org.apache.hadoop.hbase.io.compress.Compression.Algorithm.GZ)
              .build());
      assertEquals(4, admin.getDescriptor(NAME).getColumnFamily(G).getMaxVersions());
      assertEquals(
          3,
          table.get(new Get(bytes("r")).addFamily(G).readVersions(5)).size(),
          "the versions the MemStore kept show once VERSIONS allows them");
      reference(served).admin().flush("t");
      assertEquals(3, table.get(new Get(bytes("r")).addFamily(G).readVersions(5)).size());

      admin.deleteColumnFamily(NAME, G);
      assertNull(admin.getDescriptor(NAME).getColumnFamily(G));
      assertTrue(table.get(new Get(bytes("r")).addFamily(h)).size() == 1);
      assertThrows(
          IOException.class,
          () -> table.put(new Put(bytes("r")).addColumn(G, bytes("q"), bytes("gone"))));

      admin.modifyTable(
          TableDescriptorBuilder.newBuilder(admin.getDescriptor(NAME))
              .removeColumnFamily(h)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("k"))
              .build());
      assertEquals(
          List.of("f", "k"),
          List.of(admin.getDescriptor(NAME).getColumnFamilies()).stream()
              .map(family -> family.getNameAsString())
              .toList());
      assertEquals(
          List.of("f", "k"),
          reference(served).admin().describe("t").families().stream()
              .map(ColumnFamilyDescriptor::name)
              .toList(),
          "the engine's families");
      table.put(new Put(bytes("r")).addColumn(bytes("k"), bytes("q"), bytes("in k")));
      Result row = table.get(new Get(bytes("r")));
      assertEquals(1, row.size(), "h's cell is gone with h");

      IOException exists =
          assertThrows(
              IOException.class,
              () -> admin.addColumnFamily(NAME, ColumnFamilyDescriptorBuilder.of(F)));
      assertTrue(
          exists.getMessage().contains("InvalidFamilyOperationException")
              || exists.getClass().getSimpleName().equals("InvalidFamilyOperationException"),
          exists.toString());
      assertThrows(IOException.class, () -> admin.deleteColumnFamily(NAME, bytes("nope")));
    }
  }

  private static Cellar reference(ServedCellar served) {
    return served.server.database();
  }

  @Test
  void getsAndMultiGetsReadWhatTheEmbeddedDatabaseReads(TestSeed seed) throws IOException {
    load(200, seed);
    Random random = new Random(7);
    for (int i = 0; i < 100; i++) {
      byte[] key = bytes(row(random.nextInt(220)));
      int versions = 1 + random.nextInt(4);
      assertEquals(
          gotEmbedded(new dev.cellar.Get(key).readVersions(versions)),
          got(new Get(key).readVersions(versions)));
      assertEquals(
          gotEmbedded(
              new dev.cellar.Get(key)
                  .addColumn(F, bytes("q1"))
                  .setTimeRange(0, 25)
                  .readVersions(5)),
          got(new Get(key).addColumn(F, bytes("q1")).setTimeRange(0, 25).readVersions(5)));
      assertEquals(
          gotEmbedded(new dev.cellar.Get(key).addFamily(G)), got(new Get(key).addFamily(G)));
      assertEquals(!gotEmbedded(new dev.cellar.Get(key)).isEmpty(), table.exists(new Get(key)));
    }
    List<Get> gets = new ArrayList<>();
    List<dev.cellar.Get> twins = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      byte[] key = bytes(row(random.nextInt(220)));
      gets.add(new Get(key));
      twins.add(new dev.cellar.Get(key));
    }
    Result[] results = table.get(gets);
    dev.cellar.Result[] expectedResults = expected.get(twins);
    for (int i = 0; i < results.length; i++) {
      try (dev.cellar.Result twin = expectedResults[i]) {
        assertEquals(cells(twin), cells(results[i]), "multi-get " + i);
      }
    }
  }

  @Test
  void scansReadWhatTheEmbeddedDatabaseReads(TestSeed seed) throws IOException {
    load(300, seed);
    assertEquals(scannedEmbedded(new dev.cellar.Scan()), scanned(new Scan()));
    assertEquals(
        scannedEmbedded(
            new dev.cellar.Scan().withStartRow(bytes(row(20))).withStopRow(bytes(row(120)))),
        scanned(
            new Scan().withStartRow(bytes(row(20))).withStopRow(bytes(row(120))).setCaching(7)));
    assertEquals(
        scannedEmbedded(
            new dev.cellar.Scan()
                .withStartRow(bytes(row(250)))
                .withStopRow(bytes(row(40)), true)
                .setReversed(true)),
        scanned(
            new Scan()
                .withStartRow(bytes(row(250)))
                .withStopRow(bytes(row(40)), true)
                .setReversed(true)
                .setCaching(13)));
    assertEquals(
        scannedEmbedded(new dev.cellar.Scan().readVersions(5).setTimeRange(15, 35)),
        scanned(new Scan().readVersions(5).setTimeRange(15, 35).setMaxResultSize(1000)));
    assertEquals(
        scannedEmbedded(new dev.cellar.Scan().setLimit(17)),
        scanned(new Scan().setLimit(17).setCaching(5)));
    assertEquals(
        scannedEmbedded(new dev.cellar.Scan().addColumn(F, bytes("q0"))),
        scanned(new Scan().addColumn(F, bytes("q0"))));

    List<String> batched = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(new Scan().readVersions(5).setBatch(2))) {
      for (Result result : scanner) {
        assertTrue(result.size() <= 2, "a batch holds at most 2 cells");
        batched.addAll(cells(result));
      }
    }
    List<String> whole = scannedEmbedded(new dev.cellar.Scan().readVersions(5));
    whole.removeIf("|"::equals);
    assertEquals(whole, batched);

    try (ResultScanner scanner = table.getScanner(new Scan().setCaching(3))) {
      assertEquals(row(0), Bytes.toString(scanner.next().getRow()));
    }
  }

  @Test
  void filtersSelectWhatTheEmbeddedFiltersSelect(TestSeed seed) throws IOException {
    load(200, seed);
    assertEquals(
        scannedEmbedded(
            new dev.cellar.Scan().setFilter(new dev.cellar.filter.PrefixFilter(bytes("row-01")))),
        scanned(new Scan().setFilter(new PrefixFilter(bytes("row-01")))));
    assertEquals(
        scannedEmbedded(new dev.cellar.Scan().setFilter(new dev.cellar.filter.PageFilter(9))),
        scanned(new Scan().setFilter(new PageFilter(9))));
    dev.cellar.filter.SingleColumnValueFilter twin =
        new dev.cellar.filter.SingleColumnValueFilter(
            F, bytes("q0"), CompareOperator.GREATER, new BinaryComparator(bytes("v15")));
    assertEquals(
        scannedEmbedded(new dev.cellar.Scan().setFilter(twin)),
        scanned(
            new Scan()
                .setFilter(
                    new SingleColumnValueFilter(
                        F,
                        bytes("q0"),
                        org.apache.hadoop.hbase.CompareOperator.GREATER,
                        bytes("v15")))));
    assertEquals(
        scannedEmbedded(
            new dev.cellar.Scan()
                .setFilter(
                    new dev.cellar.filter.FilterList(
                        dev.cellar.filter.FilterList.Operator.MUST_PASS_ALL))),
        scanned(new Scan().setFilter(new FilterList(FilterList.Operator.MUST_PASS_ALL))));

    List<String> firstKeys = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()))) {
      for (Result result : scanner) {
        assertEquals(1, result.size());
        firstKeys.add(Bytes.toString(result.getRow()));
      }
    }
    assertEquals(200, firstKeys.size());
    try (ResultScanner scanner = table.getScanner(new Scan().setFilter(new KeyOnlyFilter()))) {
      for (Result result : scanner) {
        for (Cell cell : result.rawCells()) {
          assertEquals(0, cell.getValueLength());
        }
      }
    }
    List<String> whileMatching =
        scanned(new Scan().setFilter(new WhileMatchFilter(new PrefixFilter(bytes("row-00")))));
    assertEquals(
        scannedEmbedded(new dev.cellar.Scan().withStopRow(bytes("row-01"))), whileMatching);

    DoNotRetryIOException unknown =
        assertThrows(
            DoNotRetryIOException.class,
            () -> {
              try {
                scanned(
                    new Scan()
                        .setFilter(
                            new org.apache.hadoop.hbase.filter.ColumnPaginationFilter(
                                2, bytes("q1"))));
              } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
              }
            });
    assertTrue(unknown.getMessage().contains("ColumnPaginationFilter"), unknown.getMessage());
  }

  @Test
  void deletesOfEveryKindRemoveWhatTheEmbeddedDeletesRemove(TestSeed seed) throws IOException {
    load(60, seed);
    List<Consumer<Integer>> kinds =
        List.of(
            i -> both(new Delete(bytes(row(i))), new dev.cellar.Delete(bytes(row(i)))),
            i ->
                both(
                    new Delete(bytes(row(i))).addFamily(F),
                    new dev.cellar.Delete(bytes(row(i))).addFamily(F)),
            i ->
                both(
                    new Delete(bytes(row(i))).addColumns(F, bytes("q0")),
                    new dev.cellar.Delete(bytes(row(i))).addColumns(F, bytes("q0"))),
            i ->
                both(
                    new Delete(bytes(row(i))).addColumn(F, bytes("q0"), 20),
                    new dev.cellar.Delete(bytes(row(i))).addColumn(F, bytes("q0"), 20)),
            i ->
                both(
                    new Delete(bytes(row(i))).addFamilyVersion(F, 10),
                    new dev.cellar.Delete(bytes(row(i))).addFamilyVersion(F, 10)),
            i ->
                both(
                    new Delete(bytes(row(i))).addColumns(F, bytes("q1"), 15),
                    new dev.cellar.Delete(bytes(row(i))).addColumns(F, bytes("q1"), 15)));
    for (int i = 0; i < 60; i++) {
      kinds.get(i % kinds.size()).accept(i);
    }
    // The newest version of a column, whichever it is: the server reads it first.
    table.delete(new Delete(bytes(row(61))).addColumn(F, bytes("q0")));
    List<Delete> batch = new ArrayList<>();
    for (int i = 62; i < 70; i++) {
      batch.add(new Delete(bytes(row(i))));
      expected.delete(new dev.cellar.Delete(bytes(row(i))));
    }
    table.delete(batch);
    assertEquals(
        scannedEmbedded(new dev.cellar.Scan().readVersions(5)),
        scanned(new Scan().readVersions(5)));
  }

  private void both(Delete delete, dev.cellar.Delete twin) {
    try {
      table.delete(delete);
      expected.delete(twin);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void bufferedMutatorAndBatchesWriteEveryRow() throws Exception {
    try (BufferedMutator mutator = served.connection.getBufferedMutator(NAME)) {
      for (int i = 0; i < 2_000; i++) {
        mutator.mutate(new Put(bytes(row(i))).addColumn(F, bytes("q"), 1L, bytes("value-" + i)));
        expected.put(
            new dev.cellar.Put(bytes(row(i))).addColumn(F, bytes("q"), 1L, bytes("value-" + i)));
      }
    }
    List<org.apache.hadoop.hbase.client.Row> actions = new ArrayList<>();
    actions.add(new Put(bytes(row(5000))).addColumn(G, bytes("x"), 1L, bytes("new")));
    actions.add(new Get(bytes(row(7))));
    actions.add(new Delete(bytes(row(8))));
    Object[] results = new Object[actions.size()];
    table.batch(actions, results);
    expected.put(new dev.cellar.Put(bytes(row(5000))).addColumn(G, bytes("x"), 1L, bytes("new")));
    expected.delete(new dev.cellar.Delete(bytes(row(8))));
    assertEquals(gotEmbedded(new dev.cellar.Get(bytes(row(7)))), cells((Result) results[1]));
    assertEquals(scannedEmbedded(new dev.cellar.Scan()), scanned(new Scan()));
  }

  @Test
  void checkAndMutateAndIncrementsAreApplied() throws IOException {
    byte[] key = bytes("counter");
    assertEquals(5L, table.incrementColumnValue(key, F, bytes("n"), 5));
    assertEquals(12L, table.incrementColumnValue(key, F, bytes("n"), 7));
    Result incremented =
        table.increment(new Increment(key).addColumn(F, bytes("n"), 1).addColumn(F, bytes("m"), 2));
    assertEquals(13L, Bytes.toLong(incremented.getValue(F, bytes("n"))));
    assertEquals(2L, Bytes.toLong(incremented.getValue(F, bytes("m"))));
    table.append(
        new org.apache.hadoop.hbase.client.Append(key).addColumn(F, bytes("s"), bytes("ab")));
    assertArrayEquals(
        bytes("abcd"),
        table
            .append(
                new org.apache.hadoop.hbase.client.Append(key)
                    .addColumn(F, bytes("s"), bytes("cd")))
            .getValue(F, bytes("s")));

    byte[] row = bytes("cas");
    assertTrue(
        table
            .checkAndMutate(
                CheckAndMutate.newBuilder(row)
                    .ifNotExists(F, bytes("q"))
                    .build(new Put(row).addColumn(F, bytes("q"), bytes("one"))))
            .isSuccess());
    assertFalse(
        table
            .checkAndMutate(
                CheckAndMutate.newBuilder(row)
                    .ifNotExists(F, bytes("q"))
                    .build(new Put(row).addColumn(F, bytes("q"), bytes("two"))))
            .isSuccess());
    assertTrue(
        table
            .checkAndMutate(
                CheckAndMutate.newBuilder(row)
                    .ifEquals(F, bytes("q"), bytes("one"))
                    .build(new Put(row).addColumn(F, bytes("q"), bytes("three"))))
            .isSuccess());
    assertFalse(
        table
            .checkAndMutate(
                CheckAndMutate.newBuilder(row)
                    .ifEquals(F, bytes("q"), bytes("one"))
                    .build(new Delete(row)))
            .isSuccess());
    assertArrayEquals(bytes("three"), table.get(new Get(row)).getValue(F, bytes("q")));
    org.apache.hadoop.hbase.client.RowMutations both =
        new org.apache.hadoop.hbase.client.RowMutations(row);
    both.add(
        List.of(
            new Put(row).addColumn(F, bytes("r"), bytes("x")),
            new Delete(row).addColumns(F, bytes("q"))));
    assertTrue(
        table
            .checkAndMutate(
                CheckAndMutate.newBuilder(row).ifEquals(F, bytes("q"), bytes("three")).build(both))
            .isSuccess());
    Result after = table.get(new Get(row));
    assertNull(after.getValue(F, bytes("q")));
    assertArrayEquals(bytes("x"), after.getValue(F, bytes("r")));
  }

  @Test
  void unknownFamiliesAndTablesFailWithoutRetries() throws IOException {
    assertThrows(
        IOException.class,
        () -> table.put(new Put(bytes("r")).addColumn(bytes("nope"), bytes("q"), bytes("v"))));
    try (Table missing = served.connection.getTable(TableName.valueOf("missing"))) {
      assertThrows(TableNotFoundException.class, () -> missing.get(new Get(bytes("r"))));
    }
  }
}
