package dev.cellar.client;

import dev.cellar.Durability;
import dev.cellar.Get;
import dev.cellar.Mutation;
import dev.cellar.Put;
import dev.cellar.Query;
import dev.cellar.Scan;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.BinaryPrefixComparator;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.ColumnPaginationFilter;
import dev.cellar.filter.ColumnPrefixFilter;
import dev.cellar.filter.CompareFilter;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.FamilyFilter;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterAllFilter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.FirstKeyOnlyFilter;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.QualifierFilter;
import dev.cellar.filter.RowFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SubstringComparator;
import dev.cellar.filter.ValueFilter;
import dev.cellar.filter.WhileMatchFilter;
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
      case SingleColumnValueFilter f ->
          named(
              "SingleColumnValueFilter",
              FilterProtos.SingleColumnValueFilter.newBuilder()
                  .setColumnFamily(ByteString.copyFrom(f.family()))
                  .setColumnQualifier(ByteString.copyFrom(f.qualifier()))
                  .setCompareOp(compareType(f.operator()))
                  .setComparator(comparator(f.comparator()))
                  .setFilterIfMissing(f.filterIfMissing())
                  .setLatestVersionOnly(f.latestVersionOnly())
                  .build());
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
