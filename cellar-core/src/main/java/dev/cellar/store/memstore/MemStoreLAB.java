package dev.cellar.store.memstore;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A memstore-local allocation buffer (HBase's {@code MemStoreLABImpl}): copies the cells of one
 * memstore segment into large chunks taken from a {@link ChunkPool}, so that a segment's cells live
 * in a few chunks that all go back to the pool together once the segment is flushed and no longer
 * read, instead of being scattered in small pieces.
 *
 * <p><b>Allocation.</b> {@link #copyCellInto} reserves the cell's length in the current chunk with
 * a compare-and-set bump (see {@link Chunk}), copies the serialized cell there and returns a {@link
 * ChunkCell} view; the copy is complete before the view is returned, so a caller that publishes the
 * view (in a concurrent map) publishes fully written bytes. When the current chunk is full, the
 * first writer to notice takes a new chunk under this object's monitor; the others wait on the
 * monitor for it rather than spin. A cell longer than the maximum allocation is copied to a heap
 * array of its own instead ({@link KeyValue#copyOf}), as HBase does to keep big cells from wasting
 * chunk space.
 *
 * <p><b>Lifetime and ownership.</b> The MSLAB holds the one reference of every chunk it took. Its
 * own count ({@link RefCnt}) starts at one, owned by the segment; {@link #close()} drops that one,
 * {@link #incScannerCount()} adds one per open scanner and {@link #decScannerCount()} drops it, and
 * a read result holds one through {@link #pinHandle()} for as long as it keeps cells. The chunks
 * are released when the count reaches zero: a flushed snapshot's memory is freed only after the
 * last scanner over it closed, and a scanner can no longer start once it was freed.
 *
 * <p><b>Concurrency.</b> Copies run concurrently from any number of threads. Closing must not race
 * a copy (the memstore's lock orders them); opening and closing scanners may race anything.
 */
public final class MemStoreLAB {

  private final ChunkPool pool;
  private final int maxAllocation;
  private final RefCnt refCnt = RefCnt.recycling(token -> releaseChunks(), 0);

  /** No bytes, this MSLAB's count: see {@link #pinHandle()}. */
  private final Buf pinHandle = Buf.wrap(MemorySegment.NULL, refCnt);

  private final AtomicBoolean closed = new AtomicBoolean();

  /** Every chunk taken, in order; guarded by this object's monitor. */
  private final List<Chunk> chunks = new ArrayList<>();

  /** The chunk being filled; null before the first copy and once the chunks are released. */
  private volatile Chunk current;

  /**
   * An MSLAB taking chunks from {@code pool}; cells longer than {@code maxAllocation} bytes go to
   * the heap.
   *
   * @throws IllegalArgumentException if {@code maxAllocation} is negative or above the chunk size
   */
  public MemStoreLAB(ChunkPool pool, int maxAllocation) {
    if (maxAllocation < 0 || maxAllocation > pool.chunkSize()) {
      throw new IllegalArgumentException(
          "max allocation must be between 0 and the chunk size "
              + pool.chunkSize()
              + ", was "
              + maxAllocation);
    }
    this.pool = pool;
    this.maxAllocation = maxAllocation;
  }

  /**
   * Copies {@code cell} (any implementation, contiguous or not) and returns the copy with {@code
   * sequenceId}: a view into a chunk, or for a cell longer than the maximum allocation a heap cell.
   * The caller may reuse the source's memory as soon as this returns.
   *
   * @throws IllegalStateException if the MSLAB was closed
   */
  public Cell copyCellInto(Cell cell, long sequenceId) {
    return copyCellInto(cell, sequenceId, KeyValue.LATEST_TIMESTAMP);
  }

  /**
   * As {@link #copyCellInto(Cell, long)}, but a timestamp of {@link KeyValue#LATEST_TIMESTAMP}
   * becomes {@code latestTimestamp} in the copy (the source is left as it is).
   *
   * @throws IllegalStateException if the MSLAB was closed
   */
  public Cell copyCellInto(Cell cell, long sequenceId, long latestTimestamp) {
    if (closed.get()) {
      throw new IllegalStateException("copy into a closed MSLAB");
    }
    int length = cell.length();
    if (length > maxAllocation) {
      return KeyValue.copyOf(cell, latestTimestamp).withSequenceId(sequenceId);
    }
    Chunk chunk = current;
    for (; ; ) {
      if (chunk != null) {
        int offset = chunk.allocate(length);
        if (offset >= 0) {
          KeyValue.writeTo(cell, chunk.segment(), offset, latestTimestamp);
          return new ChunkCell(chunk.segment(), offset, cell, sequenceId);
        }
      }
      chunk = replaceFullChunk(chunk);
    }
  }

  /** Installs a new current chunk unless another writer already replaced {@code full}. */
  private synchronized Chunk replaceFullChunk(Chunk full) {
    if (closed.get()) {
      throw new IllegalStateException("copy into a closed MSLAB");
    }
    Chunk latest = current;
    if (latest != full) {
      return latest;
    }
    Chunk fresh = pool.take();
    chunks.add(fresh);
    current = fresh;
    return fresh;
  }

  /**
   * Registers a scanner that will read this MSLAB's cells; the chunks stay alive until the matching
   * {@link #decScannerCount()}.
   *
   * @throws IllegalStateException if the chunks were already released
   */
  public void incScannerCount() {
    if (!refCnt.tryRetain()) {
      throw new IllegalStateException("scanner opened on an MSLAB whose chunks were released");
    }
  }

  /** Unregisters a scanner; the last one out after {@link #close()} releases the chunks. */
  public void decScannerCount() {
    refCnt.release();
  }

  /**
   * A buffer of no bytes sharing this MSLAB's count: a holder that retains it while a scanner is
   * open keeps the chunks, and every cell in them, readable until it releases it (a read result
   * pins it as it pins a cached block, instead of copying the cells it took from the MemStore).
   */
  public Buf pinHandle() {
    return pinHandle;
  }

  /**
   * Says that no more cells will be copied: the chunks are released now if no scanner is open, else
   * when the last one closes. Later calls do nothing.
   */
  public void close() {
    if (closed.compareAndSet(false, true)) {
      refCnt.release();
    }
  }

  private synchronized void releaseChunks() {
    current = null;
    for (Chunk chunk : chunks) {
      chunk.release();
    }
    chunks.clear();
  }

  /** Chunks currently held: taken and not yet released. */
  public synchronized int chunkCount() {
    return chunks.size();
  }

  /** True once the chunks were released (closed, and no scanner open). */
  public boolean isReleased() {
    return refCnt.refCnt() == 0;
  }
}
