package dev.cellar.filter;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;

/**
 * Builds, for a Cellar filter, comparator or cell, the equivalent object of HBase 2.6 (its client
 * library is on the test class path), so that tests can hold Cellar's answers against HBase's.
 */
final class HBaseTwins {

  private HBaseTwins() {}

  static org.apache.hadoop.hbase.KeyValue cell(Cell cell) {
    org.apache.hadoop.hbase.KeyValue twin =
        new org.apache.hadoop.hbase.KeyValue(
            cell.rowArray(),
            cell.familyArray(),
            cell.qualifierArray(),
            cell.timestamp(),
            org.apache.hadoop.hbase.KeyValue.Type.codeToType(cell.typeByte()),
            cell.valueArray());
    twin.setSequenceId(cell.sequenceId());
    return twin;
  }

  /** A Cellar copy of an HBase cell (a hint), so the two can be compared by Cellar's order. */
  @SuppressWarnings("deprecation") // getTypeByte is the KeyValue's own type byte, as stored
  static KeyValue fromHBase(org.apache.hadoop.hbase.Cell cell) {
    return KeyValue.create(
        org.apache.hadoop.hbase.CellUtil.cloneRow(cell),
        org.apache.hadoop.hbase.CellUtil.cloneFamily(cell),
        org.apache.hadoop.hbase.CellUtil.cloneQualifier(cell),
        cell.getTimestamp(),
        CellType.fromCode(cell.getTypeByte()),
        org.apache.hadoop.hbase.CellUtil.cloneValue(cell));
  }

  /** Whether two hints name the same key (both may be null). */
  static boolean sameKey(Cell hint, org.apache.hadoop.hbase.Cell twin) {
    if (hint == null || twin == null) {
      return hint == null && twin == null;
    }
    return CellComparator.compareKeyIgnoringSequenceId(hint, fromHBase(twin)) == 0;
  }

  static Filter.ReturnCode code(org.apache.hadoop.hbase.filter.Filter.ReturnCode code) {
    return Filter.ReturnCode.valueOf(code.name());
  }

  static org.apache.hadoop.hbase.filter.Filter.ReturnCode code(Filter.ReturnCode code) {
    return org.apache.hadoop.hbase.filter.Filter.ReturnCode.valueOf(code.name());
  }

  static org.apache.hadoop.hbase.CompareOperator operator(CompareOperator operator) {
    return org.apache.hadoop.hbase.CompareOperator.valueOf(operator.name());
  }

  static org.apache.hadoop.hbase.filter.ByteArrayComparable comparator(
      ByteArrayComparable comparator) {
    return switch (comparator) {
      case BinaryComparator binary ->
          new org.apache.hadoop.hbase.filter.BinaryComparator(binary.value());
      case BinaryPrefixComparator prefix ->
          new org.apache.hadoop.hbase.filter.BinaryPrefixComparator(prefix.value());
      case SubstringComparator substring ->
          new org.apache.hadoop.hbase.filter.SubstringComparator(
              dev.cellar.cell.Bytes.toString(substring.value()));
      case RegexStringComparator regex -> {
        org.apache.hadoop.hbase.filter.RegexStringComparator twin =
            new org.apache.hadoop.hbase.filter.RegexStringComparator(
                regex.expression(), regex.flags());
        twin.setCharset(regex.charset());
        yield twin;
      }
      case BitComparator bit ->
          new org.apache.hadoop.hbase.filter.BitComparator(
              bit.value(),
              org.apache.hadoop.hbase.filter.BitComparator.BitwiseOp.valueOf(
                  bit.operator().name()));
      case NullComparator ignored -> new org.apache.hadoop.hbase.filter.NullComparator();
      case LongComparator number ->
          new org.apache.hadoop.hbase.filter.LongComparator(number.number());
      case BigDecimalComparator number ->
          new org.apache.hadoop.hbase.filter.BigDecimalComparator(number.number());
      case BinaryComponentComparator component ->
          new org.apache.hadoop.hbase.filter.BinaryComponentComparator(
              component.value(), component.offset());
      default -> throw new IllegalArgumentException("no HBase twin for " + comparator);
    };
  }

  /** HBase's filter doing what {@code filter} does; FilterLists are twinned member by member. */
  static org.apache.hadoop.hbase.filter.Filter filter(Filter filter) {
    return switch (filter) {
      case RowFilter f ->
          new org.apache.hadoop.hbase.filter.RowFilter(
              operator(f.operator()), comparator(f.comparator()));
      case FamilyFilter f ->
          new org.apache.hadoop.hbase.filter.FamilyFilter(
              operator(f.operator()), comparator(f.comparator()));
      case QualifierFilter f ->
          new org.apache.hadoop.hbase.filter.QualifierFilter(
              operator(f.operator()), comparator(f.comparator()));
      case ValueFilter f ->
          new org.apache.hadoop.hbase.filter.ValueFilter(
              operator(f.operator()), comparator(f.comparator()));
      case ColumnPrefixFilter f ->
          new org.apache.hadoop.hbase.filter.ColumnPrefixFilter(f.prefix());
      case PageFilter f -> new org.apache.hadoop.hbase.filter.PageFilter(f.pageSize());
      case SingleColumnValueFilter f -> scvf(f);
      case TimestampsFilter f ->
          new org.apache.hadoop.hbase.filter.TimestampsFilter(f.timestamps(), f.canHint());
      case InclusiveStopFilter f ->
          new org.apache.hadoop.hbase.filter.InclusiveStopFilter(f.stopRow());
      case MultipleColumnPrefixFilter f ->
          new org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter(
              f.prefixes().toArray(new byte[0][]));
      case ColumnCountGetFilter f ->
          new org.apache.hadoop.hbase.filter.ColumnCountGetFilter(f.limit());
      case ColumnRangeFilter f ->
          new org.apache.hadoop.hbase.filter.ColumnRangeFilter(
              f.min(), f.minInclusive(), f.max(), f.maxInclusive());
      case FuzzyRowFilter f ->
          new org.apache.hadoop.hbase.filter.FuzzyRowFilter(
              f.pairs().stream()
                  .map(p -> new org.apache.hadoop.hbase.util.Pair<>(p.key(), p.mask()))
                  .collect(java.util.stream.Collectors.toList()));
      case MultiRowRangeFilter f ->
          new org.apache.hadoop.hbase.filter.MultiRowRangeFilter(
              f.ranges().stream()
                  .map(
                      r ->
                          new org.apache.hadoop.hbase.filter.MultiRowRangeFilter.RowRange(
                              r.start(), r.startInclusive(), r.stop(), r.stopInclusive()))
                  .collect(java.util.stream.Collectors.toList()));
      case DependentColumnFilter f ->
          new org.apache.hadoop.hbase.filter.DependentColumnFilter(
              f.family(),
              f.qualifier(),
              f.dropDependentColumn(),
              operator(f.operator()),
              f.comparator() == null ? null : comparator(f.comparator()));
      case RandomRowFilter f -> new org.apache.hadoop.hbase.filter.RandomRowFilter(f.chance());
      case FirstKeyValueMatchingQualifiersFilter f -> firstMatching(f);
      case SkipFilter f -> new org.apache.hadoop.hbase.filter.SkipFilter(filter(f.inner()));
      case SingleColumnValueExcludeFilter f -> scvef(f.test());
      case ColumnValueFilter f ->
          new org.apache.hadoop.hbase.filter.ColumnValueFilter(
              f.family(), f.qualifier(), operator(f.operator()), comparator(f.comparator()));
      case FilterList f ->
          new org.apache.hadoop.hbase.filter.FilterList(
              org.apache.hadoop.hbase.filter.FilterList.Operator.valueOf(f.operator().name()),
              f.filters().stream().map(HBaseTwins::filter).toList());
      default -> throw new IllegalArgumentException("no HBase twin for " + filter);
    };
  }

  @SuppressWarnings("deprecation") // HBase 2.6.1 still ships it, so Cellar serves it
  private static org.apache.hadoop.hbase.filter.Filter firstMatching(
      FirstKeyValueMatchingQualifiersFilter filter) {
    java.util.TreeSet<byte[]> qualifiers =
        new java.util.TreeSet<>(org.apache.hadoop.hbase.util.Bytes.BYTES_COMPARATOR);
    qualifiers.addAll(filter.qualifiers());
    return new org.apache.hadoop.hbase.filter.FirstKeyValueMatchingQualifiersFilter(qualifiers);
  }

  private static org.apache.hadoop.hbase.filter.Filter scvef(SingleColumnValueFilter filter) {
    org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter twin =
        new org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter(
            filter.family(),
            filter.qualifier(),
            operator(filter.operator()),
            comparator(filter.comparator()));
    twin.setFilterIfMissing(filter.filterIfMissing());
    twin.setLatestVersionOnly(filter.latestVersionOnly());
    return twin;
  }

  private static org.apache.hadoop.hbase.filter.Filter scvf(SingleColumnValueFilter filter) {
    org.apache.hadoop.hbase.filter.SingleColumnValueFilter twin =
        new org.apache.hadoop.hbase.filter.SingleColumnValueFilter(
            filter.family(),
            filter.qualifier(),
            operator(filter.operator()),
            comparator(filter.comparator()));
    twin.setFilterIfMissing(filter.filterIfMissing());
    twin.setLatestVersionOnly(filter.latestVersionOnly());
    return twin;
  }
}
