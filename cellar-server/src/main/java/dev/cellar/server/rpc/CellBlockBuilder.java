package dev.cellar.server.rpc;

import dev.cellar.cell.Cell;
import dev.cellar.row.Pins;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Builds a response's cell block in the connection's codec, as cells are read: a cell is either
 * copied into a pooled direct buffer or, when it lies whole in a cached block whose pin the builder
 * holds ({@link #addPinned}), sent from the block's own memory without a copy.
 *
 * <p>Only native memory is sent in place (see {@link #addPinned}).
 *
 * <p>Layout written per cell: {@code int32 length}, {@code int32 keyLength}, {@code int32
 * valueLength}, the key, the value, and with {@link CellCodec#KEY_VALUE_WITH_TAGS} and a tagged
 * cell {@code int16 tagsLength, tags}; {@code length} counts everything after itself. Everything
 * after the length is a KeyValue's own layout, as cached blocks without encoding hold it, so a
 * pinned cell is its 4-byte length (copied) followed by a slice of the block.
 *
 * <p><b>Memory.</b> Copies go into one pooled buffer, taken on the first cell, through one {@link
 * MemorySegment} view of it renewed only when it grows, so a copied cell costs no heap allocation.
 * The first pinned cell turns the block into a {@link PinnedCellBlock}: the copied run so far
 * becomes one part, the block's bytes the next (one wrapper per cell, the only heap cost, which is
 * why only cells of at least {@value #MIN_PINNED_BYTES} bytes go that way), and copying resumes
 * after them; a buffer with parts taken from it is never grown, as its memory is shared, but
 * replaced. {@link #takeRetained()} hands the block over (the caller then owns it and, through it,
 * the pins); {@link #close()} releases whatever was not handed over. Not thread-safe.
 */
public final class CellBlockBuilder implements AutoCloseable {

  /**
   * The smallest cell sent from block memory: below it, copying the bytes is cheaper than the
   * buffer objects that reference them.
   */
  public static final int MIN_PINNED_BYTES = 512;

  /**
   * Bytes left free before the first cell of the copy buffer, where {@link ResponseFrames} writes
   * the frame's head when it fits, so that a response of copied cells goes out as one buffer (no
   * composite, no per-write buffer views).
   */
  public static final int HEAD_ROOM = 128;

  private static final ValueLayout.OfInt INT =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
  private static final ValueLayout.OfShort SHORT =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
  private static final int INITIAL_CAPACITY = 4096;

  private final ByteBufAllocator allocator;
  private final CellCodec codec;
  private ByteBuf buffer;
  private MemorySegment view;

  /** Where the copied bytes not yet made a part start in {@link #buffer}. */
  private int runStart;

  private PinnedCellBlock parts;
  private Pins pins;
  private int cells;
  private int size;

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
    MemorySegment.copy(
        cell.valueSegment(), cell.valueOffset(), view, at + 12 + keyLength, valueLength);
    if (size > 12 + keyLength + valueLength) {
      long tagsAt = at + 12 + keyLength + valueLength;
      view.set(SHORT, tagsAt, (short) cell.tagsLength());
      MemorySegment.copy(
          cell.tagsSegment(), cell.tagsOffset(), view, tagsAt + 2, cell.tagsLength());
    }
    buffer.writerIndex((int) at + size);
    counted(size);
  }

  /**
   * Whether {@code cell}, lying in a pinned block, is worth sending from the block's memory: it
   * lies in native memory and is large enough.
   */
  public boolean worthPinning(Cell cell) {
    return cell.segment().isNative() && encodedSize(cell, codec) >= MIN_PINNED_BYTES;
  }

  /**
   * The pins that keep the blocks of {@link #addPinned} cells alive, made on the first call; the
   * caller adds its row's pins to them before adding the row's cells.
   */
  public Pins pins() {
    if (pins == null) {
      pins = new Pins();
    }
    return pins;
  }

  /**
   * Appends {@code cell}, which lies in a block {@link #pins()} holds, by reference to the block's
   * memory when it is large enough and laid out as a KeyValue there, else as a copy.
   */
  public void addPinned(Cell cell) {
    int size = encodedSize(cell, codec);
    if (size < MIN_PINNED_BYTES || pins == null || !contiguous(cell, size)) {
      add(cell);
      return;
    }
    ensureWritable(4);
    buffer.setInt(buffer.writerIndex(), size - 4);
    buffer.writerIndex(buffer.writerIndex() + 4);
    if (parts == null) {
      parts = new PinnedCellBlock(allocator, pins);
    }
    cutRun();
    MemorySegment bytes = cell.segment().asSlice(cell.offset(), size - 4);
    parts.addComponent(true, Unpooled.wrappedBuffer(bytes.asByteBuffer()));
    counted(size);
  }

  /**
   * Whether the cell's bytes after the length lie in native memory exactly as the block writes
   * them. A block on the heap is copied instead: the socket needs native memory, so a heap part
   * would be copied anyway, and would make the whole frame be copied into one buffer.
   */
  private boolean contiguous(Cell cell, int size) {
    MemorySegment segment = cell.segment();
    return segment.isNative()
        && cell.valueSegment() == segment
        && cell.keyOffset() == cell.offset() + 8
        && cell.valueOffset() == cell.keyOffset() + cell.keyLength()
        && (size == 12 + cell.keyLength() + cell.valueLength()
            || (cell.tagsSegment() == segment
                && cell.tagsOffset() == cell.valueOffset() + cell.valueLength() + 2));
  }

  /** Makes the copied bytes not yet a part the next part. */
  private void cutRun() {
    int end = buffer.writerIndex();
    if (end > runStart) {
      parts.addComponent(true, buffer.retainedSlice(runStart, end - runStart));
      runStart = end;
    }
  }

  private void counted(int bytes) {
    size += bytes;
    cells++;
  }

  private void ensureWritable(int size) {
    if (buffer == null) {
      buffer = allocator.directBuffer(HEAD_ROOM + Math.max(INITIAL_CAPACITY, size));
      buffer.setIndex(HEAD_ROOM, HEAD_ROOM);
      view = MemorySegment.ofBuffer(buffer.internalNioBuffer(0, buffer.capacity()));
      runStart = HEAD_ROOM;
    } else if (buffer.writableBytes() < size) {
      if (parts != null) {
        cutRun();
        buffer.release();
        buffer = null;
        ensureWritable(size);
        return;
      }
      buffer.ensureWritable(size);
      view = MemorySegment.ofBuffer(buffer.internalNioBuffer(0, buffer.capacity()));
    }
  }

  /**
   * Appends {@code cell} without its value, as HBase's KeyOnlyFilter returns it: an empty value, or
   * with {@code lengthAsValue} the value's length as a 4-byte big-endian value. Tags are not
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
    counted(size);
  }

  /** The cells added so far. */
  public int cellCount() {
    return cells;
  }

  /** The bytes added so far. */
  public int size() {
    return size;
  }

  /**
   * Hands the block over (null when no cell was added), with the pins its parts need; the caller
   * releases it. A block of copies only starts {@link #HEAD_ROOM} bytes into its buffer, which the
   * caller may write before its reader index.
   */
  public ByteBuf takeRetained() {
    ByteBuf taken;
    if (parts != null) {
      cutRun();
      buffer.release();
      taken = parts;
    } else {
      taken = buffer;
      releasePins();
    }
    buffer = null;
    view = null;
    parts = null;
    pins = null;
    return taken;
  }

  /** Releases the pins unless the parts own them (then they go with the parts). */
  private void releasePins() {
    if (pins != null && parts == null) {
      pins.release();
    }
    pins = null;
  }

  @Override
  public void close() {
    if (buffer != null) {
      buffer.release();
      buffer = null;
      view = null;
    }
    releasePins();
    if (parts != null) {
      parts.release();
      parts = null;
    }
  }
}
