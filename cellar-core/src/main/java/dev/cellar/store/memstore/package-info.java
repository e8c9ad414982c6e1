/**
 * The memstore: recent writes of one column family, kept sorted in memory until a flush writes them
 * to an HFile (HBase's {@code DefaultMemStore} with its MSLAB and chunk pool).
 *
 * <h2>Pieces</h2>
 *
 * <ul>
 *   <li>{@link dev.cellar.store.memstore.ChunkPool}: fixed-size off-heap chunks (2 MiB by default)
 *       shared by every memstore of the process, pooled up to a share of the global memstore size.
 *   <li>{@link dev.cellar.store.memstore.MemStoreLAB}: copies one segment's cells into chunks with
 *       a lock-free bump pointer.
 *   <li>{@link dev.cellar.store.memstore.MemStore}: the active segment and the snapshot, size
 *       accounting, and {@link dev.cellar.store.memstore.CellCursor}s filtered by an MVCC read
 *       point.
 * </ul>
 *
 * <h2>Memory and lifetime</h2>
 *
 * <ol>
 *   <li>{@code MemStore.add} copies the cell: into a chunk, or onto the heap for a cell above
 *       {@code hbase.hregion.memstore.mslab.max.allocation} or with the MSLAB disabled. The
 *       caller's memory is free for reuse when {@code add} returns, and the copy is complete before
 *       the skip list publishes it.
 *   <li>An MSLAB holds the one reference of each of its chunks. Its own count is one for its
 *       segment plus one per open cursor; the chunks go back to the pool when it reaches zero.
 *   <li>So the memory of a flushed and cleared snapshot is reused only after the last cursor that
 *       was opened over it is closed; a cell from a cursor is valid until that cursor closes.
 *   <li>A chunk never released (an MSLAB or cursor left open) is a pooled buffer left outstanding,
 *       which the leak detector reports; {@code ChunkPool.close()} refuses to free memory in use.
 * </ol>
 */
package dev.cellar.store.memstore;
