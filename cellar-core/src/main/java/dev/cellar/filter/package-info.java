/**
 * Filters: what a Get or Scan returns beyond its columns, versions and time range, with HBase's
 * Filter semantics ({@link dev.cellar.filter.Filter} is the contract the store's scanners drive).
 *
 * <ul>
 *   <li>comparisons of one part of a cell: {@link dev.cellar.filter.RowFilter}, {@link
 *       dev.cellar.filter.FamilyFilter}, {@link dev.cellar.filter.QualifierFilter}, {@link
 *       dev.cellar.filter.ValueFilter}, each with a {@link dev.cellar.filter.CompareOperator} and a
 *       {@link dev.cellar.filter.ByteArrayComparable}: {@link dev.cellar.filter.BinaryComparator},
 *       {@link dev.cellar.filter.BinaryPrefixComparator}, {@link
 *       dev.cellar.filter.BinaryComponentComparator}, {@link
 *       dev.cellar.filter.SubstringComparator}, {@link dev.cellar.filter.RegexStringComparator},
 *       {@link dev.cellar.filter.BitComparator}, {@link dev.cellar.filter.NullComparator}, {@link
 *       dev.cellar.filter.LongComparator}, {@link dev.cellar.filter.BigDecimalComparator};
 *   <li>filters that seek with hints ({@link dev.cellar.filter.HintingFilter}): rows by {@link
 *       dev.cellar.filter.PrefixFilter}, {@link dev.cellar.filter.FuzzyRowFilter} and {@link
 *       dev.cellar.filter.MultiRowRangeFilter} (with {@link dev.cellar.filter.RowRange}); columns
 *       by {@link dev.cellar.filter.ColumnPrefixFilter}, {@link
 *       dev.cellar.filter.MultipleColumnPrefixFilter} and {@link
 *       dev.cellar.filter.ColumnRangeFilter}; versions by {@link
 *       dev.cellar.filter.TimestampsFilter};
 *   <li>whole-row and per-row decisions: {@link dev.cellar.filter.SingleColumnValueFilter}, {@link
 *       dev.cellar.filter.SingleColumnValueExcludeFilter}, {@link
 *       dev.cellar.filter.ColumnValueFilter}, {@link dev.cellar.filter.DependentColumnFilter},
 *       {@link dev.cellar.filter.ColumnCountGetFilter}, {@link dev.cellar.filter.PageFilter},
 *       {@link dev.cellar.filter.InclusiveStopFilter}, {@link dev.cellar.filter.RandomRowFilter},
 *       {@link dev.cellar.filter.FirstKeyValueMatchingQualifiersFilter}, {@link
 *       dev.cellar.filter.FilterAllFilter};
 *   <li>combinations and wrappers: {@link dev.cellar.filter.FilterList}, {@link
 *       dev.cellar.filter.SkipFilter}.
 * </ul>
 *
 * <p>{@link dev.cellar.filter.ValueCondition} is check-and-mutate's test with a comparator.
 *
 * <p>Cells are compared where they lie: each filter keeps its operands as arrays with heap segments
 * over them and compares them with the cell's segment, so judging a cell allocates nothing (a seek
 * hint, which precedes a seek, is the exception, as are the regex and decimal comparators, which
 * decode). Filters keep per-row and per-scan state: one instance serves one scan on one thread.
 *
 * <p>This package depends only on {@code dev.cellar.cell}.
 */
package dev.cellar.filter;
