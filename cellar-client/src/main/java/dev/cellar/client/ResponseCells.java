package dev.cellar.client;

import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.RowReader;
import dev.cellar.RowScanner;
import dev.cellar.RowView;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import dev.cellar.row.CollectedRow;
import dev.cellar.row.Pins;
import dev.cellar.spi.ApiAccess;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.CellProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;

/**
 * The cells of one response, decoded in place: each is a {@link KeyValueCell} view into the
 * response's cell block (HBase's KeyValueCodec: {@code int32 length} then the KeyValue), which
 * stays in the pooled buffer the frame was received into. {@link #next(int)} hands out the next
 * cells as a {@link Result} that pins the block, {@link #moveInto(int, CollectedRow)} as views in a
 * row holder (a RowReader's or RowScanner's) that pins it; the block goes back to Netty's pool when
 * this and every result and holder pinning it are done with it.
 *
 * <p><b>Memory.</b> The Netty buffer is wrapped as a Cellar {@link Buf} whose last release releases
 * it, so results pin it as they pin cached blocks embedded (and a result garbage collected unclosed
 * releases it, through the result's guard). This object holds one reference, dropped by {@link
 * #close()}. Not thread-safe: one response, one caller.
 */
final class ResponseCells implements AutoCloseable {

  private final Buf block;
  private final List<Cell> cells;
  private int position;
  private boolean closed;

  /** Decodes {@code cells} (may be null), taking over its reference. */
  ResponseCells(ByteBuf cells) throws IOException {
    if (cells == null || !cells.isReadable()) {
      if (cells != null) {
        cells.release();
      }
      this.block = null;
      this.cells = List.of();
      return;
    }
    MemorySegment segment = MemorySegment.ofBuffer(cells.nioBuffer());
    this.block =
        Buf.wrap(
            segment,
            RefCnt.pooled(
                token -> cells.release(),
                0,
                "response cell block of " + segment.byteSize() + " bytes"));
    try {
      this.cells = decode(segment);
    } catch (IOException | RuntimeException e) {
      block.release();
      throw e;
    }
  }

  private static List<Cell> decode(MemorySegment segment) throws IOException {
    List<Cell> decoded = new ArrayList<>();
    long offset = 0;
    long size = segment.byteSize();
    while (offset < size) {
      if (size - offset < 4) {
        throw malformed(offset, "a cell length needs 4 bytes, " + (size - offset) + " left");
      }
      int length =
          segment.get(
              java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED.withOrder(
                  java.nio.ByteOrder.BIG_ENDIAN),
              offset);
      if (length < 8 || length > size - offset - 4) {
        throw malformed(
            offset,
            "cell length " + length + " does not fit the " + (size - offset - 4) + " bytes left");
      }
      try {
        decoded.add(new KeyValueCell(segment, offset + 4, length, false, 0));
      } catch (IllegalArgumentException e) {
        throw malformed(offset, e.getMessage());
      }
      offset += 4 + length;
    }
    return decoded;
  }

  private static IOException malformed(long offset, String what) {
    return new IOException(
        "malformed cell block from the server at offset " + offset + ": " + what);
  }

  /** The next cell to be handed out (a view), or null if none is left. */
  Cell peek() {
    return position < cells.size() ? cells.get(position) : null;
  }

  /** The number of cells not yet handed out. */
  int remaining() {
    return cells.size() - position;
  }

  /** A result of the next {@code count} cells, pinning the block. */
  Result next(int count) throws IOException {
    if (count > remaining()) {
      throw new IOException(
          "the server's answer names "
              + count
              + " cells where its cell block"
              + " has "
              + remaining()
              + " left");
    }
    if (count == 0) {
      return results().result(List.of(), null);
    }
    List<Cell> taken = cells.subList(position, position + count);
    position += count;
    Pins pins = new Pins();
    pins.pin(block);
    return results().result(taken, pins);
  }

  /**
   * Appends the next {@code count} cells to {@code into} as views, each pinning the block (a
   * reference of the row holder's own).
   */
  void moveInto(int count, CollectedRow into) throws IOException {
    if (count > remaining()) {
      throw new IOException(
          "the server's answer names "
              + count
              + " cells where its cell block"
              + " has "
              + remaining()
              + " left");
    }
    for (int i = 0; i < count; i++) {
      into.addView(cells.get(position++), block);
    }
  }

  /**
   * Appends the row {@code proto} describes to {@code into}: copies of its own protobuf cells, or
   * views of its cells of the block.
   */
  void moveInto(ClientProtos.Result proto, CollectedRow into) throws IOException {
    if (proto.getCellCount() > 0) {
      for (CellProtos.Cell cell : proto.getCellList()) {
        into.addCopy(copy(cell));
      }
      return;
    }
    moveInto(proto.getAssociatedCellCount(), into);
  }

  private static KeyValue copy(CellProtos.Cell cell) {
    return KeyValue.create(
        cell.getRow().toByteArray(),
        cell.getFamily().toByteArray(),
        cell.getQualifier().toByteArray(),
        cell.getTimestamp(),
        CellType.fromCode((byte) cell.getCellType().getNumber()),
        cell.getValue().toByteArray());
  }

  /** The result {@code proto} describes: its own protobuf cells, or its cells of the block. */
  Result result(ClientProtos.Result proto) throws IOException {
    if (proto.getCellCount() > 0) {
      List<Cell> copies = new ArrayList<>(proto.getCellCount());
      for (CellProtos.Cell cell : proto.getCellList()) {
        copies.add(copy(cell));
      }
      return results().result(copies, null);
    }
    return next(proto.getAssociatedCellCount());
  }

  private static ApiAccess.Makers<Get, Result, RowReader, RowScanner, RowView> results() {
    return ApiAccess.makers();
  }

  /** Drops this response's reference to the block. */
  @Override
  public void close() {
    if (block != null && !closed) {
      block.release();
    }
    closed = true;
  }
}
