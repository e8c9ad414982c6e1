package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.ReadOnlyFile;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.Compression;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Writes a data block index of every shape and finds every key through it. */
@ExtendWith(TestSeedExtension.class)
class BlockIndexTest {

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  private static KeyValue cell(int row) {
    byte[] key = String.format("row-%08d", row).getBytes(StandardCharsets.US_ASCII);
    return KeyValue.create(key, new byte[] {'f'}, new byte[] {'q'}, 1, CellType.PUT, new byte[0]);
  }

  private static byte[] keyBytes(KeyValue cell) {
    return cell.segment()
        .asSlice(cell.keyOffset(), cell.keyLength())
        .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
  }

  @ParameterizedTest(name = "{0} blocks, chunk {1} bytes -> {2} levels")
  @CsvSource({
    "0, 131072, 1",
    "1, 131072, 1",
    "50, 131072, 1",
    "300, 256, 3",
    "3000, 256, 4",
    "3000, 2048, 3"
  })
  void everyKeyFindsTheBlockThatCoversIt(
      int blocks, int chunkSize, int expectedLevels, TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    Path path = dir.resolve("index");
    List<KeyValue> firstKeys = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    BlockIndexWriter.Result result;
    try (AppendOnlyFile out = AppendOnlyFile.create(path)) {
      BlockWriter writer = new BlockWriter(out, Compression.NONE, ChecksumType.CRC32C, 16384);
      BlockIndexWriter index = new BlockIndexWriter(chunkSize, 16);
      for (int b = 0; b < blocks; b++) {
        KeyValue first = cell(b * 10);
        firstKeys.add(first);
        BlockWriter.WrittenBlock data = writer.write(BlockType.DATA, new byte[] {(byte) b}, 1);
        offsets.add(data.offset());
        index.addDataBlock(keyBytes(first), data.offset(), data.onDiskSizeWithHeader());
        index.writeLeafIfFull(writer);
      }
      index.writeLastLeaf(writer);
      result = index.writeRoot(writer);
      out.append(new byte[Trailer.SIZE], 0, Trailer.SIZE);
    }
    assertEquals(expectedLevels, result.levels(), "levels for " + blocks + " blocks");
    assertEquals(blocks, result.dataBlocks());
    try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
      BlockReader blocksReader =
          new BlockReader(file, file.size() - Trailer.SIZE, Compression.NONE, allocator);
      BlockLoader loader =
          (offset, size, type, cache) -> blocksReader.readBlock(offset, size, type);
      HFileBlock rootBlock = loader.loadBlock(result.rootOffset(), -1, BlockType.ROOT_INDEX, true);
      RootIndex root;
      try {
        root =
            RootIndex.parse(
                rootBlock.payload(),
                result.rootEntries(),
                path.toString(),
                rootBlock.offset(),
                "data index");
      } finally {
        rootBlock.release();
      }
      BlockIndexReader reader = new BlockIndexReader(root, result.levels(), path.toString());
      BlockIndexReader.BlockPointer pointer = new BlockIndexReader.BlockPointer();
      assertFalse(reader.locate(cell(-1), loader, pointer), "before the first key");
      for (int probe = 0; probe < 2000 && blocks > 0; probe++) {
        int row = random.nextInt(blocks * 10 + 20);
        assertTrue(reader.locate(cell(row), loader, pointer), "row " + row);
        int expected = Math.min(row / 10, blocks - 1);
        assertEquals((long) offsets.get(expected), pointer.offset, "row " + row);
      }
      byte[] midKey = reader.midKey(loader);
      if (blocks == 0) {
        assertEquals(null, midKey);
      } else if (result.levels() > 1) {
        assertArrayEquals(keyBytes(firstKeys.get((blocks - 1) / 2)), midKey);
      } else {
        assertArrayEquals(keyBytes(firstKeys.get(blocks / 2)), midKey);
      }
      for (int i = 1; i < root.count(); i++) {
        byte[] previous = root.key(i - 1);
        byte[] current = root.key(i);
        assertTrue(
            CellComparator.compareKeys(
                    java.lang.foreign.MemorySegment.ofArray(previous),
                    0,
                    previous.length,
                    java.lang.foreign.MemorySegment.ofArray(current),
                    0,
                    current.length)
                < 0);
      }
    }
    assertEquals(0, allocator.stats().usedBufferCount());
  }
}
