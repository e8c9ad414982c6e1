package dev.cellar.server.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The cell block builder sends large cells of native memory by reference and everything else as
 * copies, and both give the same bytes: random rows of cells of random sizes, some in native memory
 * (as cached off-heap blocks hold them), some on the heap, are built twice, once copying every cell
 * and once through {@link CellBlockBuilder#addPinned}, and compared.
 */
@ExtendWith(TestSeedExtension.class)
class CellBlockBuilderTest {

  private static final PooledByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

  @Test
  void pinnedCellsGiveTheBytesOfCopiedOnes(TestSeed seed) {
    Random random = new Random(seed.value());
    try (Arena arena = Arena.ofConfined()) {
      for (int round = 0; round < 50; round++) {
        List<Cell> cells = new ArrayList<>();
        int count = 1 + random.nextInt(40);
        for (int i = 0; i < count; i++) {
          cells.add(cell(arena, random, i));
        }
        ByteBuf copied = build(cells, false);
        ByteBuf pinned = build(cells, true);
        try {
          assertArrayEquals(
              ByteBufUtil.getBytes(copied), ByteBufUtil.getBytes(pinned), "round " + round);
          boolean anyLarge =
              cells.stream()
                  .anyMatch(
                      c ->
                          c.segment().isNative()
                              && CellBlockBuilder.encodedSize(c, CellCodec.KEY_VALUE)
                                  >= CellBlockBuilder.MIN_PINNED_BYTES);
          assertEquals(anyLarge, pinned instanceof CompositeByteBuf);
        } finally {
          copied.release();
          pinned.release();
        }
      }
    }
  }

  @Test
  void aBlockNotHandedOverIsReleasedWithItsPins() {
    try (Arena arena = Arena.ofConfined()) {
      CellBlockBuilder builder = new CellBlockBuilder(ALLOCATOR, CellCodec.KEY_VALUE);
      builder.pins();
      builder.addPinned(cell(arena, 4096, true));
      builder.close();
      assertNull(builder.takeRetained());
    }
  }

  @Test
  void theHandedOverBlockOwnsThePins() {
    try (Arena arena = Arena.ofConfined()) {
      CellBlockBuilder builder = new CellBlockBuilder(ALLOCATOR, CellCodec.KEY_VALUE);
      var pins = builder.pins();
      builder.addPinned(cell(arena, 4096, true));
      builder.add(cell(arena, 10, false));
      ByteBuf block = builder.takeRetained();
      builder.close();
      assertInstanceOf(PinnedCellBlock.class, block);
      assertEquals(3, ((CompositeByteBuf) block).numComponents());
      assertEquals(0, pins.size(), "no block was pinned by the caller");
      assertTrue(block.release(), "the caller held the block's only reference");
    }
  }

  private static ByteBuf build(List<Cell> cells, boolean pinned) {
    CellBlockBuilder builder = new CellBlockBuilder(ALLOCATOR, CellCodec.KEY_VALUE);
    try {
      if (pinned) {
        builder.pins();
      }
      for (Cell cell : cells) {
        if (pinned) {
          builder.addPinned(cell);
        } else {
          builder.add(cell);
        }
      }
      assertEquals(cells.size(), builder.cellCount());
      ByteBuf block = builder.takeRetained();
      assertEquals(
          block.readableBytes(),
          cells.stream().mapToInt(c -> CellBlockBuilder.encodedSize(c, CellCodec.KEY_VALUE)).sum());
      return block;
    } finally {
      builder.close();
    }
  }

  private static Cell cell(Arena arena, Random random, int index) {
    int valueLength = random.nextInt(4) == 0 ? random.nextInt(3000) : random.nextInt(64);
    return cell(arena, valueLength, random.nextBoolean(), index);
  }

  private static Cell cell(Arena arena, int valueLength, boolean offHeap) {
    return cell(arena, valueLength, offHeap, 0);
  }

  private static Cell cell(Arena arena, int valueLength, boolean offHeap, int index) {
    byte[] value = new byte[valueLength];
    new Random(index).nextBytes(value);
    KeyValue keyValue =
        KeyValue.create(
            ("row-" + index).getBytes(StandardCharsets.UTF_8),
            new byte[] {'f'},
            ("q" + index).getBytes(StandardCharsets.UTF_8),
            42L,
            CellType.PUT,
            value);
    int length = keyValue.length();
    MemorySegment segment =
        offHeap ? arena.allocate(length + 16) : MemorySegment.ofArray(new byte[length + 16]);
    KeyValue.writeTo(keyValue, segment, 8);
    return new KeyValueCell().reset(segment, 8, length, false, 0);
  }
}
