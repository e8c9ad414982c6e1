/**
 * Cells in HBase's KeyValue format: the {@link dev.cellar.cell.Cell} interface, its serialized
 * layout ({@link dev.cellar.cell.KeyValueLayout}), heap cells built by callers ({@link
 * dev.cellar.cell.KeyValue}), zero-copy views of cells in any memory ({@link
 * dev.cellar.cell.KeyValueCell}), HBase's cell order ({@link dev.cellar.cell.CellComparator}) and
 * the byte utilities everything above the memory layer shares ({@link dev.cellar.cell.Bytes}:
 * unsigned comparison, varints, HBase's bloom hashes).
 *
 * <h2>Byte compatibility</h2>
 *
 * <p>Serialized cells, their order, the variable-length integers and the hashes are bit-for-bit
 * HBase's, so that files, block indexes and bloom filters written by either system read the same in
 * the other. The tests check each against HBase's own classes (hbase-common 2.6).
 *
 * <h2>Views and copies</h2>
 *
 * <p>A cell is a set of positions into one {@link java.lang.foreign.MemorySegment}. Code on the
 * read path works on those positions ({@code segment(), rowOffset(), rowLength()}, ...) and
 * allocates nothing; the {@code ...Array()} accessors and {@link dev.cellar.cell.KeyValue#copyOf}
 * copy, for the edges of the system. A view never owns its memory and holds no reference count:
 * whoever handed out the memory decides how long the view may be read.
 *
 * <p>This package depends on nothing but {@code java.base}.
 */
package dev.cellar.cell;
