package dev.cellar.client;

import dev.cellar.Get;
import dev.cellar.Mutation;
import dev.cellar.Put;
import dev.cellar.Query;
import dev.cellar.Scan;
import dev.cellar.filter.BigDecimalComparator;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.BinaryComponentComparator;
import dev.cellar.filter.BinaryPrefixComparator;
import dev.cellar.filter.BitComparator;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.ColumnCountGetFilter;
import dev.cellar.filter.ColumnPaginationFilter;
import dev.cellar.filter.ColumnPrefixFilter;
import dev.cellar.filter.ColumnRangeFilter;
import dev.cellar.filter.ColumnValueFilter;
import dev.cellar.filter.CompareFilter;
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
import dev.cellar.filter.LongComparator;
import dev.cellar.filter.MultiRowRangeFilter;
import dev.cellar.filter.MultipleColumnPrefixFilter;
import dev.cellar.filter.NullComparator;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.QualifierFilter;
import dev.cellar.filter.RandomRowFilter;
import dev.cellar.filter.RegexStringComparator;
import dev.cellar.filter.RowFilter;
import dev.cellar.filter.RowRange;
import dev.cellar.filter.SingleColumnValueExcludeFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SkipFilter;
import dev.cellar.filter.SubstringComparator;
import dev.cellar.filter.TimestampsFilter;
import dev.cellar.filter.ValueFilter;
import dev.cellar.filter.WhileMatchFilter;
import dev.cellar.schema.Durability;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Cellar's Get, Scan, mutations and filters as HBase's protobuf messages, field by field as HBase's
 * own client fills them: a family without qualifiers reads the whole family, the time range is sent
 * only when narrowed, filters travel as {@code org.apache.hadoop.hbase.filter.*} class names with
 * their serialized form. A mutation's cells do not go into its message but into the request's cell
 * block ({@link CellBlocks}); the message only counts them. Stateless.
 */
final class Protos {

  private static final String FILTERS = "org.apache.hadoop.hbase.filter.";

  private Protos() {}

  static ByteString bytes(byte[] bytes) {
    return bytes.length == 0 ? ByteString.EMPTY : UnsafeByteOperations.unsafeWrap(bytes);
  }

  static HBaseProtos.RegionSpecifier region(byte[] regionName) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(bytes(regionName))
        .build();
  }

  static ClientProtos.Get get(Get get) {
    ClientProtos.Get.Builder proto = ClientProtos.Get.newBuilder().setRow(bytes(get.row()));
    addColumns(get, proto::addColumn);
    proto.setMaxVersions(get.maxVersions()).setCacheBlocks(get.cacheBlocks());
    if (narrowed(get)) {
      proto.setTimeRange(timeRange(get));
    }
    if (get.filter() != null) {
      proto.setFilter(filter(get.filter()));
    }
    return proto.build();
  }

  static ClientProtos.Scan scan(Scan scan, int caching, long maxResultSize) {
    ClientProtos.Scan.Builder proto =
        ClientProtos.Scan.newBuilder()
            .setStartRow(bytes(scan.startRow()))
            .setStopRow(bytes(scan.stopRow()))
            .setIncludeStopRow(scan.stopRowInclusive())
            .setReversed(scan.reversed())
            .setMaxVersions(scan.maxVersions())
            .setCacheBlocks(scan.cacheBlocks())
            .setCaching(caching)
            .setMaxResultSize(maxResultSize);
    addColumns(scan, proto::addColumn);
    if (narrowed(scan)) {
      proto.setTimeRange(timeRange(scan));
    }
    if (scan.filter() != null) {
      proto.setFilter(filter(scan.filter()));
    }
    return proto.build();
  }

  private static void addColumns(
      Query query, java.util.function.Consumer<ClientProtos.Column> add) {
    for (Map.Entry<String, List<byte[]>> family : query.columns().entrySet()) {
      ClientProtos.Column.Builder column =
          ClientProtos.Column.newBuilder()
              .setFamily(ByteString.copyFrom(family.getKey(), StandardCharsets.UTF_8));
      if (family.getValue() != null) {
        for (byte[] qualifier : family.getValue()) {
          column.addQualifier(ByteString.copyFrom(qualifier));
        }
      }
      add.accept(column.build());
    }
  }

  private static boolean narrowed(Query query) {
    return query.minTimestamp() != 0 || query.maxTimestamp() != Long.MAX_VALUE;
  }

  private static HBaseProtos.TimeRange timeRange(Query query) {
    return HBaseProtos.TimeRange.newBuilder()
        .setFrom(query.minTimestamp())
        .setTo(query.maxTimestamp())
        .build();
  }

  /** A mutation whose {@code cells().size()} cells follow in the request's cell block. */
  static ClientProtos.MutationProto mutation(Mutation mutation) {
    return ClientProtos.MutationProto.newBuilder()
        .setRow(bytes(mutation.row()))
        .setMutateType(
            mutation instanceof Put
                ? ClientProtos.MutationProto.MutationType.PUT
                : ClientProtos.MutationProto.MutationType.DELETE)
        .setAssociatedCellCount(mutation.cells().size())
        .setDurability(durability(mutation.durability()))
        .build();
  }

  private static ClientProtos.MutationProto.Durability durability(Durability durability) {
    return switch (durability) {
      case USE_DEFAULT -> ClientProtos.MutationProto.Durability.USE_DEFAULT;
      case SKIP_WAL -> ClientProtos.MutationProto.Durability.SKIP_WAL;
      case ASYNC_WAL -> ClientProtos.MutationProto.Durability.ASYNC_WAL;
      case SYNC_WAL -> ClientProtos.MutationProto.Durability.SYNC_WAL;
      case FSYNC_WAL -> ClientProtos.MutationProto.Durability.FSYNC_WAL;
    };
  }

  /** checkAndMutate's condition; a null value with EQUAL means "the column is absent". */
  static ClientProtos.Condition condition(
      byte[] row, byte[] family, byte[] qualifier, CompareOperator operator, byte[] value) {
    ComparatorProtos.ByteArrayComparable.Builder comparable =
        ComparatorProtos.ByteArrayComparable.newBuilder();
    if (value != null) {
      comparable.setValue(ByteString.copyFrom(value));
    }
    return ClientProtos.Condition.newBuilder()
        .setRow(bytes(row))
        .setFamily(ByteString.copyFrom(family))
        .setQualifier(ByteString.copyFrom(qualifier))
        .setCompareType(compareType(operator))
        .setComparator(
            comparator(
                "BinaryComparator",
                ComparatorProtos.BinaryComparator.newBuilder().setComparable(comparable).build()))
        .build();
  }

  /** checkAndMutate's condition with a comparator. */
  static ClientProtos.Condition condition(
      byte[] row,
      byte[] family,
      byte[] qualifier,
      CompareOperator operator,
      ByteArrayComparable comparator) {
    return ClientProtos.Condition.newBuilder()
        .setRow(bytes(row))
        .setFamily(ByteString.copyFrom(family))
        .setQualifier(ByteString.copyFrom(qualifier))
        .setCompareType(compareType(operator))
        .setComparator(comparator(comparator))
        .build();
  }

  /**
   * HBase's form of a filter Cellar has.
   *
   * @throws IllegalArgumentException for a filter the protocol cannot carry
   */
  static FilterProtos.Filter filter(Filter filter) {
    return switch (filter) {
      case FilterList list -> {
        FilterProtos.FilterList.Builder proto =
            FilterProtos.FilterList.newBuilder()
                .setOperator(
                    list.operator() == FilterList.Operator.MUST_PASS_ONE
                        ? FilterProtos.FilterList.Operator.MUST_PASS_ONE
                        : FilterProtos.FilterList.Operator.MUST_PASS_ALL);
        for (Filter member : list.filters()) {
          proto.addFilters(filter(member));
        }
        yield named("FilterList", proto.build());
      }
      case RowFilter f ->
          named(
              "RowFilter",
              FilterProtos.RowFilter.newBuilder().setCompareFilter(compareFilter(f)).build());
      case FamilyFilter f ->
          named(
              "FamilyFilter",
              FilterProtos.FamilyFilter.newBuilder().setCompareFilter(compareFilter(f)).build());
      case QualifierFilter f ->
          named(
              "QualifierFilter",
              FilterProtos.QualifierFilter.newBuilder().setCompareFilter(compareFilter(f)).build());
      case ValueFilter f ->
          named(
              "ValueFilter",
              FilterProtos.ValueFilter.newBuilder().setCompareFilter(compareFilter(f)).build());
      case PrefixFilter f ->
          named(
              "PrefixFilter",
              FilterProtos.PrefixFilter.newBuilder()
                  .setPrefix(ByteString.copyFrom(f.prefix()))
                  .build());
      case ColumnPrefixFilter f ->
          named(
              "ColumnPrefixFilter",
              FilterProtos.ColumnPrefixFilter.newBuilder()
                  .setPrefix(ByteString.copyFrom(f.prefix()))
                  .build());
      case SingleColumnValueFilter f -> named("SingleColumnValueFilter", singleColumnValue(f));
      case SingleColumnValueExcludeFilter f ->
          named(
              "SingleColumnValueExcludeFilter",
              FilterProtos.SingleColumnValueExcludeFilter.newBuilder()
                  .setSingleColumnValueFilter(singleColumnValue(f.test()))
                  .build());
      case ColumnValueFilter f ->
          named(
              "ColumnValueFilter",
              FilterProtos.ColumnValueFilter.newBuilder()
                  .setFamily(ByteString.copyFrom(f.family()))
                  .setQualifier(ByteString.copyFrom(f.qualifier()))
                  .setCompareOp(compareType(f.operator()))
                  .setComparator(comparator(f.comparator()))
                  .build());
      case DependentColumnFilter f -> {
        FilterProtos.CompareFilter.Builder compare =
            FilterProtos.CompareFilter.newBuilder().setCompareOp(compareType(f.operator()));
        if (f.comparator() != null) {
          compare.setComparator(comparator(f.comparator()));
        }
        yield named(
            "DependentColumnFilter",
            FilterProtos.DependentColumnFilter.newBuilder()
                .setCompareFilter(compare)
                .setColumnFamily(ByteString.copyFrom(f.family()))
                .setColumnQualifier(ByteString.copyFrom(f.qualifier()))
                .setDropDependentColumn(f.dropDependentColumn())
                .build());
      }
      case TimestampsFilter f ->
          named(
              "TimestampsFilter",
              FilterProtos.TimestampsFilter.newBuilder()
                  .addAllTimestamps(f.timestamps())
                  .setCanHint(f.canHint())
                  .build());
      case InclusiveStopFilter f ->
          named(
              "InclusiveStopFilter",
              FilterProtos.InclusiveStopFilter.newBuilder()
                  .setStopRowKey(ByteString.copyFrom(f.stopRow()))
                  .build());
      case MultipleColumnPrefixFilter f -> {
        FilterProtos.MultipleColumnPrefixFilter.Builder proto =
            FilterProtos.MultipleColumnPrefixFilter.newBuilder();
        for (byte[] prefix : f.prefixes()) {
          proto.addSortedPrefixes(ByteString.copyFrom(prefix));
        }
        yield named("MultipleColumnPrefixFilter", proto.build());
      }
      case ColumnCountGetFilter f ->
          named(
              "ColumnCountGetFilter",
              FilterProtos.ColumnCountGetFilter.newBuilder().setLimit(f.limit()).build());
      case ColumnRangeFilter f -> {
        FilterProtos.ColumnRangeFilter.Builder proto =
            FilterProtos.ColumnRangeFilter.newBuilder()
                .setMinColumnInclusive(f.minInclusive())
                .setMaxColumnInclusive(f.maxInclusive());
        if (f.min() != null) {
          proto.setMinColumn(ByteString.copyFrom(f.min()));
        }
        if (f.max() != null) {
          proto.setMaxColumn(ByteString.copyFrom(f.max()));
        }
        yield named("ColumnRangeFilter", proto.build());
      }
      case SkipFilter f ->
          named(
              "SkipFilter",
              FilterProtos.SkipFilter.newBuilder().setFilter(filter(f.inner())).build());
      case FirstKeyValueMatchingQualifiersFilter f -> {
        FilterProtos.FirstKeyValueMatchingQualifiersFilter.Builder proto =
            FilterProtos.FirstKeyValueMatchingQualifiersFilter.newBuilder();
        for (byte[] qualifier : f.qualifiers()) {
          proto.addQualifiers(ByteString.copyFrom(qualifier));
        }
        yield named("FirstKeyValueMatchingQualifiersFilter", proto.build());
      }
      case RandomRowFilter f ->
          named(
              "RandomRowFilter",
              FilterProtos.RandomRowFilter.newBuilder().setChance(f.chance()).build());
      case FuzzyRowFilter f -> {
        FilterProtos.FuzzyRowFilter.Builder proto =
            FilterProtos.FuzzyRowFilter.newBuilder().setIsMaskV2(true);
        for (FuzzyRowFilter.Pair pair : f.pairs()) {
          proto.addFuzzyKeysData(
              HBaseProtos.BytesBytesPair.newBuilder()
                  .setFirst(ByteString.copyFrom(pair.key()))
                  .setSecond(ByteString.copyFrom(pair.mask())));
        }
        yield named("FuzzyRowFilter", proto.build());
      }
      case MultiRowRangeFilter f -> {
        FilterProtos.MultiRowRangeFilter.Builder proto =
            FilterProtos.MultiRowRangeFilter.newBuilder();
        for (RowRange range : f.ranges()) {
          proto.addRowRangeList(
              FilterProtos.RowRange.newBuilder()
                  .setStartRow(ByteString.copyFrom(range.start()))
                  .setStartRowInclusive(range.startInclusive())
                  .setStopRow(ByteString.copyFrom(range.stop()))
                  .setStopRowInclusive(range.stopInclusive()));
        }
        yield named("MultiRowRangeFilter", proto.build());
      }
      case PageFilter f ->
          named(
              "PageFilter", FilterProtos.PageFilter.newBuilder().setPageSize(f.pageSize()).build());
      case FilterAllFilter f ->
          named("FilterAllFilter", FilterProtos.FilterAllFilter.getDefaultInstance());
      case FirstKeyOnlyFilter f ->
          named("FirstKeyOnlyFilter", FilterProtos.FirstKeyOnlyFilter.getDefaultInstance());
      case WhileMatchFilter f ->
          named(
              "WhileMatchFilter",
              FilterProtos.WhileMatchFilter.newBuilder().setFilter(filter(f.inner())).build());
      case ColumnPaginationFilter f ->
          named(
              "ColumnPaginationFilter",
              FilterProtos.ColumnPaginationFilter.newBuilder()
                  .setLimit(f.limit())
                  .setOffset(f.offset())
                  .build());
      default ->
          throw new IllegalArgumentException(
              "filter " + filter.getClass().getSimpleName() + " cannot be sent to a server");
    };
  }

  private static FilterProtos.SingleColumnValueFilter singleColumnValue(SingleColumnValueFilter f) {
    return FilterProtos.SingleColumnValueFilter.newBuilder()
        .setColumnFamily(ByteString.copyFrom(f.family()))
        .setColumnQualifier(ByteString.copyFrom(f.qualifier()))
        .setCompareOp(compareType(f.operator()))
        .setComparator(comparator(f.comparator()))
        .setFilterIfMissing(f.filterIfMissing())
        .setLatestVersionOnly(f.latestVersionOnly())
        .build();
  }

  private static FilterProtos.Filter named(String simpleName, Message body) {
    return FilterProtos.Filter.newBuilder()
        .setName(FILTERS + simpleName)
        .setSerializedFilter(body.toByteString())
        .build();
  }

  private static FilterProtos.CompareFilter compareFilter(CompareFilter filter) {
    return FilterProtos.CompareFilter.newBuilder()
        .setCompareOp(compareType(filter.operator()))
        .setComparator(comparator(filter.comparator()))
        .build();
  }

  private static ComparatorProtos.Comparator comparator(ByteArrayComparable comparator) {
    ComparatorProtos.ByteArrayComparable value =
        ComparatorProtos.ByteArrayComparable.newBuilder()
            .setValue(ByteString.copyFrom(comparator.value()))
            .build();
    return switch (comparator) {
      case BinaryComparator c ->
          comparator(
              "BinaryComparator",
              ComparatorProtos.BinaryComparator.newBuilder().setComparable(value).build());
      case BinaryPrefixComparator c ->
          comparator(
              "BinaryPrefixComparator",
              ComparatorProtos.BinaryPrefixComparator.newBuilder().setComparable(value).build());
      case SubstringComparator c ->
          comparator(
              "SubstringComparator",
              ComparatorProtos.SubstringComparator.newBuilder()
                  .setSubstr(new String(c.value(), StandardCharsets.UTF_8))
                  .build());
      case RegexStringComparator c ->
          comparator(
              "RegexStringComparator",
              ComparatorProtos.RegexStringComparator.newBuilder()
                  .setPattern(c.expression())
                  .setPatternFlags(c.flags())
                  .setCharset(c.charset().name())
                  .setEngine("JAVA")
                  .build());
      case BitComparator c ->
          comparator(
              "BitComparator",
              ComparatorProtos.BitComparator.newBuilder()
                  .setComparable(value)
                  .setBitwiseOp(
                      ComparatorProtos.BitComparator.BitwiseOp.valueOf(c.operator().name()))
                  .build());
      case NullComparator c ->
          comparator("NullComparator", ComparatorProtos.NullComparator.getDefaultInstance());
      case LongComparator c ->
          comparator(
              "LongComparator",
              ComparatorProtos.LongComparator.newBuilder().setComparable(value).build());
      case BigDecimalComparator c ->
          comparator(
              "BigDecimalComparator",
              ComparatorProtos.BigDecimalComparator.newBuilder().setComparable(value).build());
      case BinaryComponentComparator c ->
          comparator(
              "BinaryComponentComparator",
              ComparatorProtos.BinaryComponentComparator.newBuilder()
                  .setValue(ByteString.copyFrom(c.value()))
                  .setOffset(c.offset())
                  .build());
      default ->
          throw new IllegalArgumentException(
              "comparator "
                  + comparator.getClass().getSimpleName()
                  + " cannot be sent to a server");
    };
  }

  private static ComparatorProtos.Comparator comparator(String simpleName, Message body) {
    return ComparatorProtos.Comparator.newBuilder()
        .setName(FILTERS + simpleName)
        .setSerializedComparator(body.toByteString())
        .build();
  }

  static HBaseProtos.CompareType compareType(CompareOperator operator) {
    return switch (operator) {
      case LESS -> HBaseProtos.CompareType.LESS;
      case LESS_OR_EQUAL -> HBaseProtos.CompareType.LESS_OR_EQUAL;
      case EQUAL -> HBaseProtos.CompareType.EQUAL;
      case NOT_EQUAL -> HBaseProtos.CompareType.NOT_EQUAL;
      case GREATER_OR_EQUAL -> HBaseProtos.CompareType.GREATER_OR_EQUAL;
      case GREATER -> HBaseProtos.CompareType.GREATER;
      case NO_OP -> HBaseProtos.CompareType.NO_OP;
    };
  }
}
