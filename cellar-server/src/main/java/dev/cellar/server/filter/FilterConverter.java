package dev.cellar.server.filter;

import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.ColumnCountGetFilter;
import dev.cellar.filter.ColumnPaginationFilter;
import dev.cellar.filter.ColumnPrefixFilter;
import dev.cellar.filter.ColumnRangeFilter;
import dev.cellar.filter.ColumnValueFilter;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.DependentColumnFilter;
import dev.cellar.filter.FamilyFilter;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterAllFilter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.FirstKeyOnlyFilter;
import dev.cellar.filter.FirstKeyValueMatchingQualifiersFilter;
import dev.cellar.filter.FuzzyRowFilter;
import dev.cellar.filter.InclusiveStopFilter;
import dev.cellar.filter.MultiRowRangeFilter;
import dev.cellar.filter.MultipleColumnPrefixFilter;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.QualifierFilter;
import dev.cellar.filter.RandomRowFilter;
import dev.cellar.filter.RowFilter;
import dev.cellar.filter.RowRange;
import dev.cellar.filter.SingleColumnValueExcludeFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SkipFilter;
import dev.cellar.filter.TimestampsFilter;
import dev.cellar.filter.ValueFilter;
import dev.cellar.filter.WhileMatchFilter;
import dev.cellar.server.rpc.RpcException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Turns the filters HBase's client sends (a class name and the filter's own protobuf) into
 * Cellar's. Supported: FilterList (nested), RowFilter, FamilyFilter, QualifierFilter, ValueFilter,
 * PrefixFilter, ColumnPrefixFilter, SingleColumnValueFilter, PageFilter, FilterAllFilter,
 * WhileMatchFilter, FirstKeyOnlyFilter, KeyOnlyFilter, ColumnPaginationFilter (integer offset),
 * TimestampsFilter, InclusiveStopFilter, MultipleColumnPrefixFilter, ColumnCountGetFilter,
 * ColumnRangeFilter, SkipFilter, SingleColumnValueExcludeFilter, ColumnValueFilter,
 * DependentColumnFilter, RandomRowFilter, FirstKeyValueMatchingQualifiersFilter, and, in forward
 * scans, FuzzyRowFilter and MultiRowRangeFilter; comparators as {@link ComparatorConverter} decodes
 * them. Anything else is refused with a DoNotRetry error that names it. Each call builds new filter
 * instances (filters hold per-scan state). Stateless.
 */
public final class FilterConverter {

  private static final String PACKAGE = "org.apache.hadoop.hbase.filter.";

  /** The deepest nesting of filter lists and wrapping filters converted. */
  static final int MAX_DEPTH = 64;

  private FilterConverter() {}

  /** The filter of a Get or Scan; {@link ConvertedFilter#NONE} without one. */
  public static ConvertedFilter convert(FilterProtos.Filter proto) throws RpcException {
    if (proto == null) {
      return ConvertedFilter.NONE;
    }
    boolean[] keyOnly = new boolean[2];
    Filter filter = filter(proto, keyOnly, 1);
    return new ConvertedFilter(filter, keyOnly[0], keyOnly[1]);
  }

  /**
   * The filter {@code proto} describes, at nesting depth {@code depth} (the outermost is 1).
   *
   * @throws RpcException DoNotRetry past {@value #MAX_DEPTH} levels of lists and wrappers, which no
   *     application needs and which would cost the server its stack to convert and evaluate
   */
  private static Filter filter(FilterProtos.Filter proto, boolean[] keyOnly, int depth)
      throws RpcException {
    if (depth > MAX_DEPTH) {
      throw RpcException.doNotRetry(
          "the filter nests lists and wrapping filters more than "
              + MAX_DEPTH
              + " deep; Cellar refuses deeper filters");
    }
    String name = proto.getName();
    String simple = name.startsWith(PACKAGE) ? name.substring(PACKAGE.length()) : name;
    byte[] body = proto.getSerializedFilter().toByteArray();
    try {
      return switch (simple) {
        case "FilterList" -> filterList(FilterProtos.FilterList.parseFrom(body), keyOnly, depth);
        case "RowFilter" -> {
          FilterProtos.CompareFilter c = FilterProtos.RowFilter.parseFrom(body).getCompareFilter();
          yield new RowFilter(operator(c.getCompareOp()), comparator(c.getComparator()));
        }
        case "FamilyFilter" -> {
          FilterProtos.CompareFilter c =
              FilterProtos.FamilyFilter.parseFrom(body).getCompareFilter();
          yield new FamilyFilter(operator(c.getCompareOp()), comparator(c.getComparator()));
        }
        case "QualifierFilter" -> {
          FilterProtos.CompareFilter c =
              FilterProtos.QualifierFilter.parseFrom(body).getCompareFilter();
          yield new QualifierFilter(operator(c.getCompareOp()), comparator(c.getComparator()));
        }
        case "ValueFilter" -> {
          FilterProtos.CompareFilter c =
              FilterProtos.ValueFilter.parseFrom(body).getCompareFilter();
          yield new ValueFilter(operator(c.getCompareOp()), comparator(c.getComparator()));
        }
        case "PrefixFilter" ->
            new PrefixFilter(FilterProtos.PrefixFilter.parseFrom(body).getPrefix().toByteArray());
        case "ColumnPrefixFilter" ->
            new ColumnPrefixFilter(
                FilterProtos.ColumnPrefixFilter.parseFrom(body).getPrefix().toByteArray());
        case "SingleColumnValueFilter" ->
            singleColumnValue(FilterProtos.SingleColumnValueFilter.parseFrom(body));
        case "PageFilter" -> new PageFilter(FilterProtos.PageFilter.parseFrom(body).getPageSize());
        case "FilterAllFilter" -> new FilterAllFilter();
        case "WhileMatchFilter" ->
            new WhileMatchFilter(
                filter(
                    FilterProtos.WhileMatchFilter.parseFrom(body).getFilter(), keyOnly, depth + 1));
        case "FirstKeyOnlyFilter" -> new FirstKeyOnlyFilter();
        case "KeyOnlyFilter" -> {
          keyOnly[0] = true;
          keyOnly[1] = FilterProtos.KeyOnlyFilter.parseFrom(body).getLenAsVal();
          yield new PassAllFilter();
        }
        case "ColumnPaginationFilter" -> {
          FilterProtos.ColumnPaginationFilter p =
              FilterProtos.ColumnPaginationFilter.parseFrom(body);
          if (p.hasColumnOffset()) {
            throw RpcException.doNotRetry(
                "ColumnPaginationFilter with a column offset is not"
                    + " supported; use an integer offset");
          }
          yield new ColumnPaginationFilter(p.getLimit(), p.getOffset());
        }
        case "TimestampsFilter" -> {
          FilterProtos.TimestampsFilter t = FilterProtos.TimestampsFilter.parseFrom(body);
          yield new TimestampsFilter(t.getTimestampsList(), t.hasCanHint() && t.getCanHint());
        }
        case "InclusiveStopFilter" ->
            new InclusiveStopFilter(
                FilterProtos.InclusiveStopFilter.parseFrom(body).getStopRowKey().toByteArray());
        case "MultipleColumnPrefixFilter" ->
            new MultipleColumnPrefixFilter(
                FilterProtos.MultipleColumnPrefixFilter.parseFrom(body)
                    .getSortedPrefixesList()
                    .stream()
                    .map(ByteString::toByteArray)
                    .toList());
        case "ColumnCountGetFilter" ->
            new ColumnCountGetFilter(FilterProtos.ColumnCountGetFilter.parseFrom(body).getLimit());
        case "ColumnRangeFilter" -> {
          FilterProtos.ColumnRangeFilter r = FilterProtos.ColumnRangeFilter.parseFrom(body);
          yield new ColumnRangeFilter(
              r.hasMinColumn() ? r.getMinColumn().toByteArray() : null,
              r.getMinColumnInclusive(),
              r.hasMaxColumn() ? r.getMaxColumn().toByteArray() : null,
              r.getMaxColumnInclusive());
        }
        case "FuzzyRowFilter" -> fuzzyRow(FilterProtos.FuzzyRowFilter.parseFrom(body));
        case "MultiRowRangeFilter" -> {
          List<RowRange> ranges = new ArrayList<>();
          for (FilterProtos.RowRange r :
              FilterProtos.MultiRowRangeFilter.parseFrom(body).getRowRangeListList()) {
            ranges.add(
                new RowRange(
                    r.getStartRow().toByteArray(),
                    r.getStartRowInclusive(),
                    r.getStopRow().toByteArray(),
                    r.getStopRowInclusive()));
          }
          yield new MultiRowRangeFilter(ranges);
        }
        case "DependentColumnFilter" -> {
          FilterProtos.DependentColumnFilter d = FilterProtos.DependentColumnFilter.parseFrom(body);
          FilterProtos.CompareFilter c = d.getCompareFilter();
          yield new DependentColumnFilter(
              d.getColumnFamily().toByteArray(),
              d.getColumnQualifier().toByteArray(),
              d.getDropDependentColumn(),
              operator(c.getCompareOp()),
              c.hasComparator() ? comparator(c.getComparator()) : null);
        }
        case "FirstKeyValueMatchingQualifiersFilter" ->
            new FirstKeyValueMatchingQualifiersFilter(
                FilterProtos.FirstKeyValueMatchingQualifiersFilter.parseFrom(body)
                    .getQualifiersList()
                    .stream()
                    .map(ByteString::toByteArray)
                    .toList());
        case "RandomRowFilter" ->
            new RandomRowFilter(FilterProtos.RandomRowFilter.parseFrom(body).getChance());
        case "SkipFilter" ->
            new SkipFilter(
                filter(FilterProtos.SkipFilter.parseFrom(body).getFilter(), keyOnly, depth + 1));
        case "SingleColumnValueExcludeFilter" ->
            new SingleColumnValueExcludeFilter(
                singleColumnValue(
                    FilterProtos.SingleColumnValueExcludeFilter.parseFrom(body)
                        .getSingleColumnValueFilter()));
        case "ColumnValueFilter" -> {
          FilterProtos.ColumnValueFilter c = FilterProtos.ColumnValueFilter.parseFrom(body);
          yield new ColumnValueFilter(
              c.getFamily().toByteArray(),
              c.getQualifier().toByteArray(),
              operator(c.getCompareOp()),
              comparator(c.getComparator()));
        }
        default ->
            throw RpcException.doNotRetry("filter " + name + " is not supported by" + " Cellar");
      };
    } catch (InvalidProtocolBufferException e) {
      throw RpcException.doNotRetry("filter " + name + " could not be parsed: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry("filter " + name + ": " + e.getMessage());
    }
  }

  private static Filter filterList(FilterProtos.FilterList proto, boolean[] keyOnly, int depth)
      throws RpcException {
    List<Filter> members = new ArrayList<>();
    for (FilterProtos.Filter member : proto.getFiltersList()) {
      members.add(filter(member, keyOnly, depth + 1));
    }
    FilterList.Operator operator =
        proto.getOperator() == FilterProtos.FilterList.Operator.MUST_PASS_ONE
            ? FilterList.Operator.MUST_PASS_ONE
            : FilterList.Operator.MUST_PASS_ALL;
    return new FilterList(operator, members);
  }

  private static Filter fuzzyRow(FilterProtos.FuzzyRowFilter proto) {
    List<FuzzyRowFilter.Pair> pairs = new ArrayList<>();
    for (HBaseProtos.BytesBytesPair pair : proto.getFuzzyKeysDataList()) {
      pairs.add(
          new FuzzyRowFilter.Pair(pair.getFirst().toByteArray(), pair.getSecond().toByteArray()));
    }
    byte wildcard = proto.hasIsMaskV2() && proto.getIsMaskV2() ? (byte) 2 : (byte) 0;
    return new FuzzyRowFilter(pairs, wildcard);
  }

  private static SingleColumnValueFilter singleColumnValue(
      FilterProtos.SingleColumnValueFilter proto) throws RpcException {
    SingleColumnValueFilter filter =
        new SingleColumnValueFilter(
            proto.getColumnFamily().toByteArray(), proto.getColumnQualifier().toByteArray(),
            operator(proto.getCompareOp()), comparator(proto.getComparator()));
    filter.setFilterIfMissing(proto.getFilterIfMissing());
    filter.setLatestVersionOnly(!proto.hasLatestVersionOnly() || proto.getLatestVersionOnly());
    return filter;
  }

  /** Cellar's operator for HBase's compare type. */
  public static CompareOperator operator(HBaseProtos.CompareType type) {
    return switch (type) {
      case LESS -> CompareOperator.LESS;
      case LESS_OR_EQUAL -> CompareOperator.LESS_OR_EQUAL;
      case EQUAL -> CompareOperator.EQUAL;
      case NOT_EQUAL -> CompareOperator.NOT_EQUAL;
      case GREATER_OR_EQUAL -> CompareOperator.GREATER_OR_EQUAL;
      case GREATER -> CompareOperator.GREATER;
      case NO_OP -> CompareOperator.NO_OP;
    };
  }

  /** Cellar's comparator for HBase's serialized one. */
  public static ByteArrayComparable comparator(ComparatorProtos.Comparator proto)
      throws RpcException {
    return ComparatorConverter.comparator(proto);
  }
}
