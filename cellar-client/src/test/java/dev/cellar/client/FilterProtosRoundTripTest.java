package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cell.Bytes;
import dev.cellar.filter.BigDecimalComparator;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.BinaryComponentComparator;
import dev.cellar.filter.BitComparator;
import dev.cellar.filter.ColumnCountGetFilter;
import dev.cellar.filter.ColumnRangeFilter;
import dev.cellar.filter.ColumnValueFilter;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.DependentColumnFilter;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.FuzzyRowFilter;
import dev.cellar.filter.InclusiveStopFilter;
import dev.cellar.filter.LongComparator;
import dev.cellar.filter.MultiRowRangeFilter;
import dev.cellar.filter.MultipleColumnPrefixFilter;
import dev.cellar.filter.NullComparator;
import dev.cellar.filter.RandomRowFilter;
import dev.cellar.filter.RegexStringComparator;
import dev.cellar.filter.RowRange;
import dev.cellar.filter.SingleColumnValueExcludeFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SkipFilter;
import dev.cellar.filter.TimestampsFilter;
import dev.cellar.filter.ValueFilter;
import dev.cellar.server.filter.FilterConverter;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every filter and comparator Cellar's client sends comes back the same from the server's decoder.
 */
class FilterProtosRoundTripTest {

  private static void roundTrip(Filter filter) throws Exception {
    assertEquals(
        filter.toString(), FilterConverter.convert(Protos.filter(filter)).filter().toString());
  }

  @Test
  void everyFilterAndComparatorSurvivesTheWire() throws Exception {
    byte[] f = Bytes.toBytes("f");
    byte[] q = Bytes.toBytes("q");
    roundTrip(
        new FilterList(
            FilterList.Operator.MUST_PASS_ONE,
            new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator("a.b")),
            new ValueFilter(
                CompareOperator.NOT_EQUAL,
                new BitComparator(new byte[] {1}, BitComparator.BitwiseOp.XOR)),
            new ValueFilter(CompareOperator.EQUAL, new NullComparator()),
            new ValueFilter(CompareOperator.LESS, new LongComparator(-3)),
            new ValueFilter(
                CompareOperator.GREATER, new BigDecimalComparator(new BigDecimal("1.5"))),
            new ValueFilter(
                CompareOperator.LESS_OR_EQUAL, new BinaryComponentComparator(new byte[] {2}, 3))));
    roundTrip(new TimestampsFilter(List.of(3L, 1L), true));
    roundTrip(new InclusiveStopFilter(Bytes.toBytes("z")));
    roundTrip(new MultipleColumnPrefixFilter(List.of(Bytes.toBytes("b"), Bytes.toBytes("a"))));
    roundTrip(new ColumnCountGetFilter(4));
    roundTrip(new ColumnRangeFilter(null, true, Bytes.toBytes("m"), false));
    roundTrip(new ColumnRangeFilter(Bytes.toBytes("a"), false, null, true));
    roundTrip(new SkipFilter(new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(q))));
    SingleColumnValueFilter test =
        new SingleColumnValueFilter(f, q, CompareOperator.EQUAL, new BinaryComparator(q));
    test.setFilterIfMissing(true);
    roundTrip(new SingleColumnValueExcludeFilter(test));
    roundTrip(new ColumnValueFilter(f, q, CompareOperator.GREATER, new LongComparator(7)));
    roundTrip(new DependentColumnFilter(f, q, true));
    roundTrip(
        new DependentColumnFilter(
            f, q, false, CompareOperator.EQUAL, new RegexStringComparator("x")));
    roundTrip(new RandomRowFilter(0.25f));
    roundTrip(
        new dev.cellar.filter.FirstKeyValueMatchingQualifiersFilter(
            List.of(q, Bytes.toBytes("r"))));
    roundTrip(
        new FuzzyRowFilter(List.of(new FuzzyRowFilter.Pair(new byte[] {1, 2}, new byte[] {0, 1}))));
    roundTrip(
        new MultiRowRangeFilter(
            List.of(
                new RowRange(Bytes.toBytes("a"), true, Bytes.toBytes("c"), false),
                new RowRange(Bytes.toBytes("x"), false, null, false))));
  }
}
