/**
 * Filters: what a Get or Scan returns beyond its columns, versions and time range, with HBase's
 * Filter semantics ({@link dev.cellar.filter.Filter} is the contract the store's scanners drive).
 *
 * <ul>
 *   <li>comparisons of one part of a cell: {@link dev.cellar.filter.RowFilter}, {@link
 *       dev.cellar.filter.FamilyFilter}, {@link dev.cellar.filter.QualifierFilter}, {@link
 *       dev.cellar.filter.ValueFilter}, each with a {@link dev.cellar.filter.CompareOperator} and a
 *       {@link dev.cellar.filter.ByteArrayComparable} ({@link dev.cellar.filter.BinaryComparator},
 *       {@link dev.cellar.filter.BinaryPrefixComparator}, {@link
 *       dev.cellar.filter.SubstringComparator});
 *   <li>prefixes that seek: {@link dev.cellar.filter.PrefixFilter} (rows) and {@link
 *       dev.cellar.filter.ColumnPrefixFilter} (qualifiers);
 *   <li>whole-row decisions: {@link dev.cellar.filter.SingleColumnValueFilter}, {@link
 *       dev.cellar.filter.PageFilter}, {@link dev.cellar.filter.FilterAllFilter};
 *   <li>combinations: {@link dev.cellar.filter.FilterList}.
 * </ul>
 *
 * <p>Cells are compared where they lie: each filter keeps its operands as arrays with heap segments
 * over them and compares them with the cell's segment, so judging a cell allocates nothing (a seek
 * hint, which precedes a seek, is the exception). Filters keep per-row and per-scan state: one
 * instance serves one scan on one thread.
 *
 * <p>This package depends only on {@code dev.cellar.cell}.
 */
package dev.cellar.filter;
