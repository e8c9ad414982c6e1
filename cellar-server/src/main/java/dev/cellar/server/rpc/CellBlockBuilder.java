package dev.cellar.server.rpc;

import dev.cellar.cell.Cell;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Builds a response's cell block by copying cells, as they are read, into one pooled direct
 * buffer in the connection's codec. Cells are copied because the views a reader hands out live
 * only until its next row; what is copied is the KeyValue's own bytes, from wherever the cell
 * lies (a cached block, a MemStore chunk), straight into the buffer.
 *
 * <p>Layout written per cell: {@code int32 length}, {@code int32 keyLength}, {@code int32
 * valueLength}, the key, the value, and with {@link CellCodec#KEY_VALUE_WITH_TAGS} and a tagged
 * cell {@code int16 tagsLength, tags}; {@code length} counts everything after itself.
 *
 * <p><b>Memory.</b> The buffer is taken on the first cell, grows by doubling, and is handed over
 * by {@link #takeRetained()} (the caller then owns it) or released by {@link #close()}. Copies go
 * through one {@link MemorySegment} view of the buffer, renewed only when it grows, so a cell
 * costs no heap allocation. Not thread-safe.
 */
public final class CellBlockBuilder implements AutoCloseable {

  private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED
      .withOrder(java.nio.ByteOrder.BIG_ENDIAN);
  private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED
      .withOrder(java.nio.ByteOrder.BIG_ENDIAN);
  private static final int INITIAL_CAPACITY = 4096;

  private final ByteBufAllocator allocator;
  private final CellCodec codec;
  private ByteBuf buffer;
  private MemorySegment view;
  private int cells;

  public CellBlockBuilder(ByteBufAllocator allocator, CellCodec codec) {
    this.allocator = allocator;
    this.codec = codec;
  }

  /** The bytes {@code cell} takes in the block. */
  public static int encodedSize(Cell cell, CellCodec codec) {
    int size = 4 + 8 + cell.keyLength() + cell.valueLength();
    if (codec.withTags() && cell.tagsLength() > 0) {
      size += 2 + cell.tagsLength();
    }
    return size;
  }

  /** Appends a copy of {@code cell}. */
  public void add(Cell cell) {
    int size = encodedSize(cell, codec);
    ensureWritable(size);
    long at = buffer.writerIndex();
    int keyLength = cell.keyLength();
    int valueLength = cell.valueLength();
    view.set(INT, at, size - 4);
    view.set(INT, at + 4, keyLength);
    view.set(INT, at + 8, valueLength);
    MemorySegment.copy(cell.segment(), cell.keyOffset(), view, at + 12, keyLength);
    MemorySegment.copy(cell.valueSegment(), cell.valueOffset(), view, at + 12 + keyLength,
        valueLength);
    if (size > 12 + keyLength + valueLength) {
      long tagsAt = at + 12 + keyLength + valueLength;
      view.set(SHORT, tagsAt, (short) cell.tagsLength());
      MemorySegment.copy(cell.tagsSegment(), cell.tagsOffset(), view, tagsAt + 2,
          cell.tagsLength());
    }
    buffer.writerIndex((int) at + size);
    cells++;
  }

  private void ensureWritable(int size) {
    if (buffer == null) {
      buffer = allocator.directBuffer(Math.max(INITIAL_CAPACITY, size));
      view = MemorySegment.ofBuffer(buffer.nioBuffer(0, buffer.capacity()));
    } else if (buffer.writableBytes() < size) {
      buffer.ensureWritable(size);
      view = MemorySegment.ofBuffer(buffer.nioBuffer(0, buffer.capacity()));
    }
  }

  /**
   * Appends {@code cell} without its value, as HBase's KeyOnlyFilter returns it: an empty value,
   * or with {@code lengthAsValue} the value's length as a 4-byte big-endian value. Tags are not
   * written.
   */
  public void addKeyOnly(Cell cell, boolean lengthAsValue) {
    int keyLength = cell.keyLength();
    int valueLength = lengthAsValue ? 4 : 0;
    int size = 4 + 8 + keyLength + valueLength;
    ensureWritable(size);
    long at = buffer.writerIndex();
    view.set(INT, at, size - 4);
    view.set(INT, at + 4, keyLength);
    view.set(INT, at + 8, valueLength);
    MemorySegment.copy(cell.segment(), cell.keyOffset(), view, at + 12, keyLength);
    if (lengthAsValue) {
      view.set(INT, at + 12 + keyLength, cell.valueLength());
    }
    buffer.writerIndex((int) at + size);
    cells++;
  }

  /** The cells added so far. */
  public int cellCount() {
    return cells;
  }

  /** The bytes written so far. */
  public int size() {
    return buffer == null ? 0 : buffer.readableBytes();
  }

  /** Hands the block over (null when no cell was added); the caller releases it. */
  public ByteBuf takeRetained() {
    ByteBuf taken = buffer;
    buffer = null;
    view = null;
    return taken;
  }

  @Override
  public void close() {
    if (buffer != null) {
      buffer.release();
      buffer = null;
      view = null;
    }
  }
}
