package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The filters and comparators beyond the basic ones through HBase's own client against {@code
 * cellar serve}: each scan with an HBase filter must return what the same scan returns from an
 * embedded Cellar database holding the same cells, filtered by Cellar's twin of the filter (the
 * core tests hold those twins against HBase's filter classes).
 */
@ExtendWith(TestSeedExtension.class)
class FilterInteropTest extends ServedComparison {

  /**
   * Writes the same random rows on both sides: family f has text values in q0..q4 (several
   * versions), family g has a long in "n" and a decimal in "d".
   */
  private void load(int rows, TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      byte[] key = bytes(row(i));
      Put put = new Put(key);
      dev.cellar.Put twin = new dev.cellar.Put(key);
      for (int c = 0; c < 5; c++) {
        if (random.nextInt(3) == 0) {
          continue;
        }
        int versions = 1 + random.nextInt(3);
        for (int v = 1; v <= versions; v++) {
          byte[] value = bytes("v" + i + "-" + c + "-" + v + "-" + random.nextInt(1000));
          put.addColumn(F, bytes("q" + c), v * 10L, value);
          twin.addColumn(F, bytes("q" + c), v * 10L, value);
        }
      }
      byte[] number = Bytes.toBytes((long) random.nextInt(100) - 50);
      put.addColumn(G, bytes("n"), 5L, number);
      twin.addColumn(G, bytes("n"), 5L, number);
      byte[] decimal = Bytes.toBytes(new BigDecimal(random.nextInt(2000) - 1000).movePointLeft(2));
      put.addColumn(G, bytes("d"), 5L, decimal);
      twin.addColumn(G, bytes("d"), 5L, decimal);
      puts.add(put);
      expected.put(twin);
    }
    table.put(puts);
  }

  private List<String> scanned(Filter filter) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(new Scan().readVersions(5).setFilter(filter))) {
      for (Result result : scanner) {
        rows.addAll(cells(result));
        rows.add("|");
      }
    }
    return rows;
  }

  private List<String> scannedEmbedded(dev.cellar.filter.Filter filter) throws IOException {
    List<String> rows = new ArrayList<>();
    try (dev.cellar.ResultScanner scanner =
        expected.scanner(new dev.cellar.Scan().readVersions(5).setFilter(filter))) {
      for (dev.cellar.Result result : scanner) {
        try (result) {
          rows.addAll(cells(result));
          rows.add("|");
        }
      }
    }
    return rows;
  }

  /** The cells of {@code rows} (as {@link #scanned} lists them) that pass, row by row. */
  private static List<String> meaning(
      List<String> rows, java.util.function.Predicate<String> keeps) {
    List<String> kept = new ArrayList<>();
    boolean rowHasCells = false;
    for (String cell : rows) {
      if (cell.equals("|")) {
        if (rowHasCells) {
          kept.add("|");
        }
        rowHasCells = false;
      } else if (keeps.test(cell)) {
        kept.add(cell);
        rowHasCells = true;
      }
    }
    return kept;
  }

  /** The served scan with {@code filter} returns what the embedded one with {@code twin} does. */
  private void same(Filter filter, dev.cellar.filter.Filter twin) throws IOException {
    List<String> served = scanned(filter);
    assertEquals(scannedEmbedded(twin), served, filter.toString());
  }

  private static dev.cellar.filter.ValueFilter valueFilter(
      dev.cellar.filter.CompareOperator operator, dev.cellar.filter.ByteArrayComparable twin) {
    return new dev.cellar.filter.ValueFilter(operator, twin);
  }

  @Test
  void everyComparatorIsServed(TestSeed seed) throws IOException {
    load(80, seed);
    same(
        new ValueFilter(
            CompareOperator.EQUAL,
            new org.apache.hadoop.hbase.filter.RegexStringComparator("^v1.-[02]-")),
        valueFilter(
            dev.cellar.filter.CompareOperator.EQUAL,
            new dev.cellar.filter.RegexStringComparator("^v1.-[02]-")));
    same(
        new ValueFilter(
            CompareOperator.NOT_EQUAL,
            new org.apache.hadoop.hbase.filter.RegexStringComparator(
                "V2", java.util.regex.Pattern.CASE_INSENSITIVE)),
        valueFilter(
            dev.cellar.filter.CompareOperator.NOT_EQUAL,
            new dev.cellar.filter.RegexStringComparator(
                "V2", java.util.regex.Pattern.CASE_INSENSITIVE, StandardCharsets.UTF_8)));
    byte[] mask = Bytes.toBytes(1L);
    same(
        new ValueFilter(
            CompareOperator.EQUAL,
            new org.apache.hadoop.hbase.filter.BitComparator(
                mask, org.apache.hadoop.hbase.filter.BitComparator.BitwiseOp.AND)),
        valueFilter(
            dev.cellar.filter.CompareOperator.EQUAL,
            new dev.cellar.filter.BitComparator(
                mask, dev.cellar.filter.BitComparator.BitwiseOp.AND)));
    same(
        new ValueFilter(
            CompareOperator.NOT_EQUAL, new org.apache.hadoop.hbase.filter.NullComparator()),
        valueFilter(
            dev.cellar.filter.CompareOperator.NOT_EQUAL, new dev.cellar.filter.NullComparator()));
    Filter numbers =
        new org.apache.hadoop.hbase.filter.FamilyFilter(
            CompareOperator.EQUAL, new org.apache.hadoop.hbase.filter.BinaryComparator(G));
    dev.cellar.filter.Filter numbersTwin =
        new dev.cellar.filter.FamilyFilter(
            dev.cellar.filter.CompareOperator.EQUAL, new dev.cellar.filter.BinaryComparator(G));
    same(
        new org.apache.hadoop.hbase.filter.FilterList(
            numbers,
            new org.apache.hadoop.hbase.filter.QualifierFilter(
                CompareOperator.EQUAL,
                new org.apache.hadoop.hbase.filter.BinaryComparator(bytes("n"))),
            new ValueFilter(
                CompareOperator.GREATER, new org.apache.hadoop.hbase.filter.LongComparator(7))),
        new dev.cellar.filter.FilterList(
            dev.cellar.filter.FilterList.Operator.MUST_PASS_ALL,
            List.of(
                numbersTwin,
                new dev.cellar.filter.QualifierFilter(
                    dev.cellar.filter.CompareOperator.EQUAL,
                    new dev.cellar.filter.BinaryComparator(bytes("n"))),
                valueFilter(
                    dev.cellar.filter.CompareOperator.GREATER,
                    new dev.cellar.filter.LongComparator(7)))));
    same(
        new org.apache.hadoop.hbase.filter.SingleColumnValueFilter(
            G,
            bytes("d"),
            CompareOperator.LESS_OR_EQUAL,
            new org.apache.hadoop.hbase.filter.BigDecimalComparator(new BigDecimal("-1.5"))),
        new dev.cellar.filter.SingleColumnValueFilter(
            G,
            bytes("d"),
            dev.cellar.filter.CompareOperator.LESS_OR_EQUAL,
            new dev.cellar.filter.BigDecimalComparator(new BigDecimal("-1.5"))));
    same(
        new org.apache.hadoop.hbase.filter.RowFilter(
            CompareOperator.EQUAL,
            new org.apache.hadoop.hbase.filter.BinaryComponentComparator(bytes("3"), 7)),
        new dev.cellar.filter.RowFilter(
            dev.cellar.filter.CompareOperator.EQUAL,
            new dev.cellar.filter.BinaryComponentComparator(bytes("3"), 7)));
  }

  @Test
  void columnAndVersionFiltersAreServed(TestSeed seed) throws IOException {
    load(80, seed);
    List<String> everything = scanned(null);
    for (boolean canHint : new boolean[] {false, true}) {
      same(
          new org.apache.hadoop.hbase.filter.TimestampsFilter(List.of(10L, 30L, 5L), canHint),
          new dev.cellar.filter.TimestampsFilter(List.of(10L, 30L, 5L), canHint));
      assertEquals(
          meaning(everything, c -> c.matches(".*/(10|30|5)=.*")),
          scanned(
              new org.apache.hadoop.hbase.filter.TimestampsFilter(List.of(10L, 30L, 5L), canHint)));
    }
    assertEquals(
        meaning(everything, c -> c.matches(".*/f:q[123]/.*|.*/g:d/.*")),
        scanned(
            new org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter(
                new byte[][] {bytes("q1"), bytes("q2"), bytes("q3"), bytes("d")})));
    assertEquals(
        meaning(everything, c -> c.matches(".*/.:q[23]/.*")),
        scanned(
            new org.apache.hadoop.hbase.filter.ColumnRangeFilter(
                bytes("q1"), false, bytes("q3"), true)));
    same(
        new org.apache.hadoop.hbase.filter.InclusiveStopFilter(bytes(row(17))),
        new dev.cellar.filter.InclusiveStopFilter(bytes(row(17))));
    byte[][] prefixes = {bytes("q1"), bytes("q3"), bytes("d")};
    same(
        new org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter(prefixes),
        new dev.cellar.filter.MultipleColumnPrefixFilter(List.of(prefixes)));
    same(
        new org.apache.hadoop.hbase.filter.ColumnRangeFilter(bytes("q1"), false, bytes("q3"), true),
        new dev.cellar.filter.ColumnRangeFilter(bytes("q1"), false, bytes("q3"), true));
    same(
        new org.apache.hadoop.hbase.filter.ColumnRangeFilter(null, true, bytes("q2"), false),
        new dev.cellar.filter.ColumnRangeFilter(null, true, bytes("q2"), false));
    same(
        new org.apache.hadoop.hbase.filter.SkipFilter(
            new ValueFilter(
                CompareOperator.NOT_EQUAL,
                new org.apache.hadoop.hbase.filter.SubstringComparator("-2-"))),
        new dev.cellar.filter.SkipFilter(
            valueFilter(
                dev.cellar.filter.CompareOperator.NOT_EQUAL,
                new dev.cellar.filter.SubstringComparator("-2-"))));
    same(
        new org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter(
            G, bytes("n"), CompareOperator.GREATER, Bytes.toBytes(0L)),
        new dev.cellar.filter.SingleColumnValueExcludeFilter(
            new dev.cellar.filter.SingleColumnValueFilter(
                G,
                bytes("n"),
                dev.cellar.filter.CompareOperator.GREATER,
                new dev.cellar.filter.BinaryComparator(Bytes.toBytes(0L)))));
    same(
        new org.apache.hadoop.hbase.filter.ColumnValueFilter(
            F,
            bytes("q2"),
            CompareOperator.EQUAL,
            new org.apache.hadoop.hbase.filter.RegexStringComparator("-[13]-")),
        new dev.cellar.filter.ColumnValueFilter(
            F,
            bytes("q2"),
            dev.cellar.filter.CompareOperator.EQUAL,
            new dev.cellar.filter.RegexStringComparator("-[13]-")));
    Result counted =
        table.get(
            new org.apache.hadoop.hbase.client.Get(bytes(row(3)))
                .setFilter(new org.apache.hadoop.hbase.filter.ColumnCountGetFilter(2)));
    try (dev.cellar.Result twin =
        expected.get(
            new dev.cellar.Get(bytes(row(3)))
                .setFilter(new dev.cellar.filter.ColumnCountGetFilter(2)))) {
      assertEquals(cells(twin), cells(counted));
    }
    List<String> reversed = new ArrayList<>();
    try (ResultScanner scanner =
        table.getScanner(
            new Scan()
                .setReversed(true)
                .setFilter(
                    new org.apache.hadoop.hbase.filter.InclusiveStopFilter(bytes(row(70)))))) {
      for (Result result : scanner) {
        reversed.add(Bytes.toString(result.getRow()));
      }
    }
    assertEquals(10, reversed.size(), reversed.toString());
    assertEquals(row(70), reversed.get(9));
  }

  private List<String> rowsOf(Scan scan) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result result : scanner) {
        rows.add(Bytes.toString(result.getRow()));
      }
    }
    return rows;
  }

  @Test
  void rowHintingFiltersAreServed(TestSeed seed) throws IOException {
    load(120, seed);
    byte[] key = bytes("row-0007");
    byte[] mask = {0, 0, 0, 0, 1, 1, 1, 0};
    same(
        new org.apache.hadoop.hbase.filter.FuzzyRowFilter(
            List.of(new org.apache.hadoop.hbase.util.Pair<>(key, mask))),
        new dev.cellar.filter.FuzzyRowFilter(
            List.of(new dev.cellar.filter.FuzzyRowFilter.Pair(key, mask))));
    List<String> sevens = new ArrayList<>();
    for (int i = 7; i < 120; i += 10) {
      sevens.add(row(i));
    }
    assertEquals(
        sevens,
        rowsOf(
            new Scan()
                .setFilter(
                    new org.apache.hadoop.hbase.filter.FuzzyRowFilter(
                        List.of(new org.apache.hadoop.hbase.util.Pair<>(key, mask.clone()))))));
    List<org.apache.hadoop.hbase.filter.MultiRowRangeFilter.RowRange> ranges =
        List.of(
            new org.apache.hadoop.hbase.filter.MultiRowRangeFilter.RowRange(
                bytes(row(10)), true, bytes(row(13)), false),
            new org.apache.hadoop.hbase.filter.MultiRowRangeFilter.RowRange(
                bytes(row(40)), true, bytes(row(41)), true),
            new org.apache.hadoop.hbase.filter.MultiRowRangeFilter.RowRange(
                bytes(row(70)), false, bytes(row(72)), true));
    assertEquals(
        List.of(row(10), row(11), row(12), row(40), row(41), row(71), row(72)),
        rowsOf(
            new Scan()
                .setFilter(
                    new org.apache.hadoop.hbase.filter.MultiRowRangeFilter(
                        new ArrayList<>(ranges)))));
    same(
        new org.apache.hadoop.hbase.filter.MultiRowRangeFilter(new ArrayList<>(ranges)),
        new dev.cellar.filter.MultiRowRangeFilter(
            ranges.stream()
                .map(
                    r ->
                        new dev.cellar.filter.RowRange(
                            r.getStartRow(),
                            r.isStartRowInclusive(),
                            r.getStopRow(),
                            r.isStopRowInclusive()))
                .toList()));
    Scan reversedScan =
        new Scan()
            .setReversed(true)
            .setFilter(
                new org.apache.hadoop.hbase.filter.FuzzyRowFilter(
                    List.of(new org.apache.hadoop.hbase.util.Pair<>(key, mask.clone()))));
    Throwable reversed =
        org.junit.jupiter.api.Assertions.assertThrows(
                java.io.UncheckedIOException.class, () -> rowsOf(reversedScan))
            .getCause();
    assertTrue(
        reversed instanceof org.apache.hadoop.hbase.DoNotRetryIOException, reversed.toString());
    assertTrue(reversed.getMessage().contains("FuzzyRowFilter"), reversed.getMessage());
  }

  @Test
  void dependentAndRandomFiltersAreServed(TestSeed seed) throws IOException {
    load(120, seed);
    for (boolean drop : new boolean[] {false, true}) {
      same(
          new org.apache.hadoop.hbase.filter.DependentColumnFilter(F, bytes("q0"), drop),
          new dev.cellar.filter.DependentColumnFilter(F, bytes("q0"), drop));
      same(
          new org.apache.hadoop.hbase.filter.DependentColumnFilter(
              F,
              bytes("q1"),
              drop,
              CompareOperator.EQUAL,
              new org.apache.hadoop.hbase.filter.RegexStringComparator("-[12]-")),
          new dev.cellar.filter.DependentColumnFilter(
              F,
              bytes("q1"),
              drop,
              dev.cellar.filter.CompareOperator.EQUAL,
              new dev.cellar.filter.RegexStringComparator("-[12]-")));
    }
    assertEquals(
        120,
        rowsOf(new Scan().setFilter(new org.apache.hadoop.hbase.filter.RandomRowFilter(1f)))
            .size());
    assertEquals(
        0,
        rowsOf(new Scan().setFilter(new org.apache.hadoop.hbase.filter.RandomRowFilter(0f)))
            .size());
    int kept =
        rowsOf(new Scan().setFilter(new org.apache.hadoop.hbase.filter.RandomRowFilter(0.5f)))
            .size();
    // 120 draws at one half: 60 expected, sigma about 5.5.
    assertTrue(kept > 25 && kept < 95, "kept " + kept + " of 120");
  }

  @Test
  void checkAndMutateTakesEveryComparator() throws IOException {
    byte[] row = bytes("cam");
    byte[] q = bytes("q");
    table.put(new Put(row).addColumn(F, q, Bytes.toBytes(42L)));
    assertTrue(
        mutate(
            CheckAndMutate.newBuilder(row)
                .ifMatches(F, q, CompareOperator.LESS, Bytes.toBytes(41L))
                .build(new Put(row).addColumn(F, bytes("a"), bytes("1")))));
    assertTrue(
        mutate(
            CheckAndMutate.newBuilder(row)
                .ifMatches(
                    new org.apache.hadoop.hbase.filter.SingleColumnValueFilter(
                        F,
                        q,
                        CompareOperator.GREATER,
                        new org.apache.hadoop.hbase.filter.LongComparator(41)))
                .build(new Put(row).addColumn(F, bytes("b"), bytes("1")))));
    assertFalse(
        mutate(
            CheckAndMutate.newBuilder(row)
                .ifNotExists(F, q)
                .build(new Put(row).addColumn(F, bytes("c"), bytes("1")))));
    assertTrue(
        mutate(
            CheckAndMutate.newBuilder(row)
                .ifNotExists(F, bytes("absent"))
                .build(new Put(row).addColumn(F, bytes("d"), bytes("1")))));
    Result result = table.get(new org.apache.hadoop.hbase.client.Get(row));
    assertTrue(result.containsColumn(F, bytes("a")));
    assertTrue(result.containsColumn(F, bytes("b")));
    assertFalse(result.containsColumn(F, bytes("c")));
    assertTrue(result.containsColumn(F, bytes("d")));
  }

  private boolean mutate(CheckAndMutate checkAndMutate) throws IOException {
    return table.checkAndMutate(checkAndMutate).isSuccess();
  }
}
