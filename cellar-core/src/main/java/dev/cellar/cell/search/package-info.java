/**
 * The read path's searches over cells, kept out of the exported cell model: {@link
 * dev.cellar.cell.search.SearchKey}, the seek keys a read rebuilds in place instead of allocating,
 * and {@link dev.cellar.cell.search.RowWords}, the row words that let a binary search over a
 * block's cells or index entries decide most steps on an array of ints. The engine's block indexes,
 * encoded blocks and stores use them; applications see neither.
 */
package dev.cellar.cell.search;
