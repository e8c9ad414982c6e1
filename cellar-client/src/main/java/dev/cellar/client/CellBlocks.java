package dev.cellar.client;

import dev.cellar.Mutation;
import dev.cellar.cell.KeyValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/**
 * Writes the request cell block of a batch of mutations in HBase's KeyValueCodec: per cell {@code
 * int32 length} (= 8 + key length + value length), then the cell's KeyValue serialization without
 * tags ({@code int32 keyLength, int32 valueLength}, the key, the value), cells of one mutation
 * after another in the order their messages are sent. Stateless.
 */
final class CellBlocks {

  private static final int LENGTHS = 8;

  private CellBlocks() {}

  /** The cell block of {@code mutations}, in a pooled buffer the caller owns; null if empty. */
  static ByteBuf encode(ByteBufAllocator allocator, List<? extends Mutation> mutations) {
    int size = 0;
    for (Mutation mutation : mutations) {
      for (KeyValue cell : mutation.cells()) {
        size += 4 + LENGTHS + cell.keyLength() + cell.valueLength();
      }
    }
    if (size == 0) {
      return null;
    }
    ByteBuf block = allocator.directBuffer(size);
    for (Mutation mutation : mutations) {
      for (KeyValue cell : mutation.cells()) {
        int length = LENGTHS + cell.keyLength() + cell.valueLength();
        block.writeInt(length);
        block.writeBytes(cell.segment().asSlice(cell.offset(), length).asByteBuffer());
      }
    }
    return block;
  }

  /** The bytes {@code mutation} adds to a cell block, for a writer's buffer accounting. */
  static long size(Mutation mutation) {
    long size = 0;
    for (KeyValue cell : mutation.cells()) {
      size += 4 + LENGTHS + cell.keyLength() + cell.valueLength();
    }
    return size;
  }
}
