package dev.cellar.server.service;

import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.RowReader;
import dev.cellar.RowScanner;
import dev.cellar.RowView;
import dev.cellar.cell.Cell;
import dev.cellar.server.filter.ConvertedFilter;
import dev.cellar.server.rpc.CellBlockBuilder;
import dev.cellar.server.rpc.RpcCall;
import dev.cellar.spi.ApiAccess;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.CellProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Writes a row's cells into a response the way the connection reads them: appended to the call's
 * cell block (the result then only says how many cells are its own), or, on a connection without a
 * codec, as protobuf cells inside the result. Applies HBase's KeyOnlyFilter transformation.
 * Stateless.
 */
final class ResultEncoder {

  private static final ClientProtos.Result EMPTY = ClientProtos.Result.getDefaultInstance();

  /** Takes a row's pins into a cell block, which the public API does not show. */
  private static final ApiAccess.Makers<Get, Result, RowReader, RowScanner, RowView> API =
      ApiAccess.makers();

  /** The results that only count their cells in the cell block, made once for small counts. */
  private static final ClientProtos.Result[] COUNTED = new ClientProtos.Result[64];

  static {
    COUNTED[0] = EMPTY;
    for (int count = 1; count < COUNTED.length; count++) {
      COUNTED[count] = ClientProtos.Result.newBuilder().setAssociatedCellCount(count).build();
    }
  }

  private ResultEncoder() {}

  /** The result whose {@code count} cells are in the cell block (no cells: the empty result). */
  static ClientProtos.Result counted(int count) {
    return count < COUNTED.length
        ? COUNTED[count]
        : ClientProtos.Result.newBuilder().setAssociatedCellCount(count).build();
  }

  /** A result holding {@code cells} (in order). */
  static ClientProtos.Result encode(
      RpcCall call, List<? extends Cell> cells, ConvertedFilter filter) {
    int count = cells.size();
    if (count == 0) {
      return EMPTY;
    }
    if (call.codec().usesCellBlocks()) {
      append(call.cells(), cells, 0, count, filter);
      return counted(count);
    }
    ClientProtos.Result.Builder result = ClientProtos.Result.newBuilder();
    for (int i = 0; i < count; i++) {
      result.addCell(protoCell(cells.get(i), filter));
    }
    return result.build();
  }

  /**
   * A result holding {@code row}'s cells, those lying in cached blocks sent from the blocks' memory
   * (the call's cell block then pins the blocks until it is written).
   */
  static ClientProtos.Result encode(RpcCall call, RowView row, ConvertedFilter filter) {
    if (!call.codec().usesCellBlocks() || filter.keyOnly()) {
      return encode(call, row.cells(), filter);
    }
    int count = row.size();
    if (count == 0) {
      return EMPTY;
    }
    appendPinned(call.cells(), row, 0, count);
    return counted(count);
  }

  /**
   * Appends {@code row}'s cells {@code [from, to)} to a cell block, by reference to their blocks'
   * memory where they lie in one and are large enough, taking the row's pins for the block.
   */
  static void appendPinned(CellBlockBuilder block, RowView row, int from, int to) {
    boolean pinned = false;
    for (int i = from; i < to; i++) {
      Cell cell = row.cell(i);
      if (row.isInPinnedBlock(i) && block.worthPinning(cell)) {
        if (!pinned) {
          API.retainPins(row, block.pins());
          pinned = true;
        }
        block.addPinned(cell);
      } else {
        block.add(cell);
      }
    }
  }

  /** Appends {@code cells[from, to)} to a cell block. */
  static long append(
      CellBlockBuilder block,
      List<? extends Cell> cells,
      int from,
      int to,
      ConvertedFilter filter) {
    int before = block.size();
    for (int i = from; i < to; i++) {
      if (filter.keyOnly()) {
        block.addKeyOnly(cells.get(i), filter.lengthAsValue());
      } else {
        block.add(cells.get(i));
      }
    }
    return block.size() - before;
  }

  /** A protobuf copy of {@code cell}. */
  static CellProtos.Cell protoCell(Cell cell, ConvertedFilter filter) {
    byte[] value;
    if (filter.keyOnly()) {
      value =
          filter.lengthAsValue()
              ? ByteBuffer.allocate(4).putInt(cell.valueLength()).array()
              : new byte[0];
    } else {
      value = cell.valueArray();
    }
    return CellProtos.Cell.newBuilder()
        .setRow(UnsafeByteOperations.unsafeWrap(cell.rowArray()))
        .setFamily(UnsafeByteOperations.unsafeWrap(cell.familyArray()))
        .setQualifier(UnsafeByteOperations.unsafeWrap(cell.qualifierArray()))
        .setTimestamp(cell.timestamp())
        .setCellType(CellProtos.CellType.forNumber(cell.typeByte() & 0xff))
        .setValue(value.length == 0 ? ByteString.EMPTY : UnsafeByteOperations.unsafeWrap(value))
        .build();
  }

  /** The bytes a row's cells take, for the scan size limit. */
  static long size(List<? extends Cell> cells) {
    long size = 0;
    for (int i = 0; i < cells.size(); i++) {
      Cell cell = cells.get(i);
      size += 12 + cell.keyLength() + cell.valueLength();
    }
    return size;
  }
}
