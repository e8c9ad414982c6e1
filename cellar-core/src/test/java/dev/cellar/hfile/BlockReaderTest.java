package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.LruBlockCache;
import dev.cellar.cache.LruBlockCacheConfig;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.ReadOnlyFile;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.memory.BufSource;
import dev.cellar.memory.RecycledHeapArrays;
import dev.cellar.schema.Compression;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(TestSeedExtension.class)
class BlockReaderTest {

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  private record Written(BlockWriter.WrittenBlock block, byte[] payload) {}

  private List<Written> writeBlocks(
      Path path, Compression compression, Random random, int bytesPerChecksum) throws IOException {
    return writeBlocks(path, compression, random, ChecksumType.CRC32C, bytesPerChecksum);
  }

  private List<Written> writeBlocks(
      Path path,
      Compression compression,
      Random random,
      ChecksumType checksumType,
      int bytesPerChecksum)
      throws IOException {
    List<Written> written = new ArrayList<>();
    BlockType[] types = {
      BlockType.DATA,
      BlockType.LEAF_INDEX,
      BlockType.BLOOM_CHUNK,
      BlockType.DATA,
      BlockType.META,
      BlockType.ROOT_INDEX,
      BlockType.FILE_INFO
    };
    try (AppendOnlyFile out = AppendOnlyFile.create(path)) {
      BlockWriter writer = new BlockWriter(out, compression, checksumType, bytesPerChecksum);
      for (int i = 0; i < 20; i++) {
        byte[] payload =
            new byte[random.nextInt(3) == 0 ? random.nextInt(100) : random.nextInt(90_000)];
        for (int j = 0; j < payload.length; j++) {
          payload[j] = (byte) (random.nextInt(4) == 0 ? random.nextInt() : j % 17);
        }
        BlockType type = types[random.nextInt(types.length)];
        written.add(new Written(writer.write(type, payload, payload.length), payload));
      }
      out.append(new byte[16], 0, 16);
    }
    return written;
  }

  /**
   * Blocks read one after the other into reusable arrays (a cache's left-out misses) come back in
   * one block object, reset for each block, with each block's own header fields, payload and
   * read-ahead; a block read while an earlier one is held gets an object of its own.
   */
  @Test
  void blocksReadIntoAReusableSlotShareTheSlotsBlockObject(TestSeed seed) throws IOException {
    Path path = dir.resolve("blocks");
    List<Written> written = writeBlocks(path, Compression.NONE, new Random(seed.value()), 16384);
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 26);
    try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
      BlockReader reader = new BlockReader(file, file.size() - 16, Compression.NONE, allocator);
      int reused = 0;
      Set<HFileBlock> seen = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Written w : written) {
        HFileBlock block =
            reader.readBlock(
                w.block().offset(),
                w.block().onDiskSizeWithHeader(),
                w.block().type(),
                arrays.reusableSource());
        HFileBlock other;
        seen.add(block);
        try {
          assertEquals(w.block().type(), block.type());
          assertEquals(w.block().offset(), block.offset());
          assertEquals(w.block().onDiskSizeWithHeader(), block.onDiskSizeWithHeader());
          assertEquals(w.payload().length, block.payloadSize());
          assertArrayEquals(
              w.payload(), block.payload().getBytes(0, block.payloadSize()), block.toString());
          assertArrayEquals(
              w.payload(),
              block.buf().getBytes(BlockHeader.SIZE, block.payloadSize()),
              "the exact view of the block");
          other =
              reader.readBlock(
                  w.block().offset(),
                  w.block().onDiskSizeWithHeader(),
                  w.block().type(),
                  arrays.reusableSource());
          assertNotSame(block, other, "a slot in use is not handed out");
          assertArrayEquals(w.payload(), other.payload().getBytes(0, other.payloadSize()));
          seen.add(other);
          other.release();
        } finally {
          block.release();
        }
        HFileBlock again =
            reader.readBlock(
                w.block().offset(),
                w.block().onDiskSizeWithHeader(),
                w.block().type(),
                arrays.reusableSource());
        if (RecycledHeapArrays.arrayLength(again.backing()) >= RecycledHeapArrays.MIN_POOLED) {
          assertTrue(
              seen.contains(again),
              "read again into a free slot of its class, with that slot's block object");
          reused++;
        }
        assertEquals(w.block().offset(), again.offset());
        assertArrayEquals(w.payload(), again.payload().getBytes(0, again.payloadSize()));
        again.release();
      }
      assertTrue(reused > 0, "no block object was reused");
    }
  }

  /**
   * An L1 keeps a block read into a reusable slot as it is; once evicted and released, the slot's
   * next read gets the same block object and buffer in a new generation, and the old entry's
   * generation no longer retains it.
   */
  @Test
  void anL1KeepsABlockReadIntoAReusableSlotForItsGenerationOnly() throws IOException {
    Path path = dir.resolve("blocks");
    List<Written> written = writeBlocks(path, Compression.NONE, new Random(5), 16384);
    Written first =
        written.stream().filter(w -> w.payload().length > 20_000).findFirst().orElseThrow();
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 20);
    LruBlockCache cache =
        new LruBlockCache(LruBlockCacheConfig.withCapacity(1 << 22), Runnable::run);
    try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
      BlockReader reader = new BlockReader(file, file.size() - 16, Compression.NONE, allocator);
      HFileBlock block =
          reader.readBlock(
              first.block().offset(),
              first.block().onDiskSizeWithHeader(),
              first.block().type(),
              arrays.reusableSource());
      BlockCacheKey key = new BlockCacheKey("blocks", first.block().offset());
      cache.cacheBlockInItsMemory(key, block, false);
      int generation = block.backing().generation();
      block.release();
      HFileBlock cached = (HFileBlock) cache.getBlockRetained(key, true, false, false);
      assertSame(block, cached, "kept as it is");
      assertArrayEquals(first.payload(), cached.payload().getBytes(0, cached.payloadSize()));
      cached.release();
      assertTrue(cache.evictBlock(key));
      assertEquals(0, block.refCnt());

      HFileBlock next =
          reader.readBlock(
              first.block().offset(),
              first.block().onDiskSizeWithHeader(),
              first.block().type(),
              arrays.reusableSource());
      assertSame(block, next, "the slot's block object, in its next generation");
      assertTrue(next.backing().generation() != generation);
      assertFalse(next.backing().tryRetain(generation), "an old entry's hit misses");
      assertEquals(1, next.refCnt(), "and leaves the count as it found it");
      next.release();
    } finally {
      cache.shutdown();
    }
  }

  /**
   * A damaged block read into a reusable slot (heap arrays, or the allocator's off-heap buffers)
   * fails its checksum and gives the slot back: the slot is taken again at once, with one
   * reference, and the allocator has no buffer left in use.
   */
  @Test
  void aDamagedBlockReadIntoAReusableSlotGivesTheSlotBack(TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    Path path = dir.resolve("blocks");
    List<Written> written = writeBlocks(path, Compression.NONE, random, 512);
    Written target =
        written.stream().filter(w -> w.payload().length > 20_000).findFirst().orElseThrow();
    byte[] damaged = Files.readAllBytes(path);
    damaged[(int) target.block().offset() + BlockHeader.SIZE + 100] ^= 1;
    Path damagedPath = dir.resolve("damaged");
    Files.write(damagedPath, damaged);
    RecycledHeapArrays arrays = new RecycledHeapArrays(1 << 22);
    try (ReadOnlyFile file = ReadOnlyFile.open(damagedPath)) {
      BlockReader reader = new BlockReader(file, file.size() - 16, Compression.NONE, allocator);
      for (BufSource memory : List.of(arrays.reusableSource(), allocator.reusableSource())) {
        for (int attempt = 0; attempt < 3; attempt++) {
          assertThrows(
              CorruptHFileException.class,
              () ->
                  reader
                      .readBlock(
                          target.block().offset(),
                          target.block().onDiskSizeWithHeader(),
                          target.block().type(),
                          memory)
                      .release());
        }
        Buf again = memory.takeAtLeastRetained(target.block().onDiskSizeWithHeader());
        assertEquals(1, again.refCnt(), "the slot came back with no reference left");
        again.release();
      }
    }
    assertEquals(0, allocator.stats().usedBufferCount(), "no buffer leaked on the error path");
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "GZ", "SNAPPY", "LZ4", "ZSTD"})
  void readsBackEveryBlockWithOrWithoutItsSize(Compression compression, TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    Path path = dir.resolve("blocks");
    List<Written> written = writeBlocks(path, compression, random, 16384);
    try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
      BlockReader reader = new BlockReader(file, file.size() - 16, compression, allocator);
      long[] lastOffsetByType = new long[BlockType.values().length];
      java.util.Arrays.fill(lastOffsetByType, -1);
      for (Written w : written) {
        for (boolean knownSize : new boolean[] {true, false}) {
          HFileBlock block =
              reader.readBlock(
                  w.block().offset(),
                  knownSize ? w.block().onDiskSizeWithHeader() : -1,
                  w.block().type());
          try {
            assertEquals(w.block().type(), block.type());
            assertEquals(w.block().offset(), block.offset());
            assertEquals(w.block().onDiskSizeWithHeader(), block.onDiskSizeWithHeader());
            assertArrayEquals(
                w.payload(), block.payload().getBytes(0, block.payloadSize()), block.toString());
            assertEquals(
                lastOffsetByType[block.type().ordinal()], block.header().prevBlockOffset());
            int index = written.indexOf(w);
            int size = w.block().onDiskSizeWithHeader();
            boolean peekFits = size + BlockHeader.SIZE <= allocator.contiguousRoomFor(size);
            int expectedNext =
                index + 1 < written.size() && peekFits
                    ? written.get(index + 1).block().onDiskSizeWithHeader()
                    : -1;
            assertEquals(
                expectedNext, block.nextBlockOnDiskSize(), "read-ahead of the next header");
          } finally {
            block.release();
          }
        }
        lastOffsetByType[w.block().type().ordinal()] = w.block().offset();
      }
    }
    assertEquals(0, allocator.stats().usedBufferCount());
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "GZ", "SNAPPY", "LZ4", "ZSTD"})
  void everyFlippedBitIsDetectedAndNamed(Compression compression, TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    Path path = dir.resolve("blocks");
    List<Written> written = writeBlocks(path, compression, random, 512);
    byte[] bytes = Files.readAllBytes(path);
    Path damagedPath = dir.resolve("damaged");
    for (int trial = 0; trial < 60; trial++) {
      Written target = written.get(random.nextInt(written.size()));
      int position =
          (int) target.block().offset() + random.nextInt(target.block().onDiskSizeWithHeader());
      byte[] damaged = bytes.clone();
      damaged[position] ^= (byte) (1 << random.nextInt(8));
      Files.write(damagedPath, damaged);
      try (ReadOnlyFile file = ReadOnlyFile.open(damagedPath)) {
        BlockReader reader = new BlockReader(file, file.size() - 16, compression, allocator);
        CorruptHFileException error =
            assertThrows(
                CorruptHFileException.class,
                () ->
                    reader
                        .readBlock(
                            target.block().offset(),
                            target.block().onDiskSizeWithHeader(),
                            target.block().type())
                        .release(),
                "flipped byte " + position);
        assertEquals(target.block().offset(), error.offset());
        assertTrue(error.getMessage().contains(damagedPath.toString()), error.getMessage());
      }
    }
    assertEquals(0, allocator.stats().usedBufferCount(), "no buffer leaked on the error paths");
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "ZSTD"})
  void truncationWrongTypesAndImpossibleOffsetsAreCorruption(Compression compression)
      throws IOException {
    Random random = new Random(7);
    Path path = dir.resolve("blocks");
    List<Written> written = writeBlocks(path, compression, random, 16384);
    BlockWriter.WrittenBlock last = written.get(written.size() - 1).block();
    try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
      BlockReader reader = new BlockReader(file, file.size() - 16, compression, allocator);
      BlockType wrong = last.type() == BlockType.META ? BlockType.FILE_INFO : BlockType.META;
      CorruptHFileException typeError =
          assertThrows(
              CorruptHFileException.class,
              () -> reader.readBlock(last.offset(), last.onDiskSizeWithHeader(), wrong));
      assertTrue(typeError.getMessage().contains("expected " + wrong), typeError.getMessage());
      assertThrows(
          CorruptHFileException.class,
          () -> reader.readBlock(last.offset(), last.onDiskSizeWithHeader() + 1, null));
      assertThrows(CorruptHFileException.class, () -> reader.readBlock(-1, 100, null));
      assertThrows(CorruptHFileException.class, () -> reader.readBlock(file.size(), 100, null));
      assertThrows(
          CorruptHFileException.class, () -> reader.readBlock(last.offset() + 1, -1, null));
    }
    byte[] bytes = Files.readAllBytes(path);
    Path truncated = dir.resolve("truncated");
    Files.write(truncated, java.util.Arrays.copyOf(bytes, (int) last.offset() + 40));
    try (ReadOnlyFile file = ReadOnlyFile.open(truncated)) {
      BlockReader reader = new BlockReader(file, bytes.length - 16, compression, allocator);
      CorruptHFileException error =
          assertThrows(
              CorruptHFileException.class,
              () -> reader.readBlock(last.offset(), last.onDiskSizeWithHeader(), null));
      assertTrue(error.getMessage().contains("truncated"), error.getMessage());
    }
    assertEquals(0, allocator.stats().usedBufferCount());
  }

  /**
   * HBase's writer leaves a NULL block the room of its checksums, zero-filled; Cellar's does the
   * same, and reads such blocks back without verifying anything.
   */
  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "GZ", "SNAPPY", "LZ4", "ZSTD"})
  void nullChecksumBlocksKeepAZeroFilledChecksumArea(Compression compression, TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    Path path = dir.resolve("blocks");
    int bytesPerChecksum = 512;
    List<Written> written =
        writeBlocks(path, compression, random, ChecksumType.NULL, bytesPerChecksum);
    byte[] bytes = Files.readAllBytes(path);
    try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
      BlockReader reader = new BlockReader(file, file.size() - 16, compression, allocator);
      for (Written w : written) {
        HFileBlock block = reader.readBlock(w.block().offset(), -1, w.block().type());
        try {
          BlockHeader header = block.header();
          int dataSize = header.onDiskDataSizeWithHeader();
          int chunks = (dataSize + bytesPerChecksum - 1) / bytesPerChecksum;
          assertEquals(ChecksumType.NULL, header.checksumType());
          assertEquals(4 * chunks, header.checksumBytes(), block.toString());
          assertEquals(dataSize + 4 * chunks, w.block().onDiskSizeWithHeader());
          int areaStart = (int) w.block().offset() + dataSize;
          assertArrayEquals(
              new byte[4 * chunks],
              java.util.Arrays.copyOfRange(bytes, areaStart, areaStart + 4 * chunks));
          assertArrayEquals(
              w.payload(), block.payload().getBytes(0, block.payloadSize()), block.toString());
        } finally {
          block.release();
        }
      }
    }
    assertEquals(0, allocator.stats().usedBufferCount());
  }

  /**
   * One flipped bit turns CRC32C (2) into NULL (0): the checksums left in the area give the block
   * away, so its payload is never served unchecked.
   */
  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "ZSTD"})
  void aChecksumTypeFlippedToNullIsCorruption(Compression compression) throws IOException {
    Random random = new Random(11);
    Path path = dir.resolve("blocks");
    List<Written> written = writeBlocks(path, compression, random, 512);
    byte[] bytes = Files.readAllBytes(path);
    Path damagedPath = dir.resolve("damaged");
    for (Written target : written) {
      byte[] damaged = bytes.clone();
      int typeByte = (int) target.block().offset() + BlockHeader.CHECKSUM_TYPE_OFFSET;
      assertEquals(ChecksumType.CRC32C.code(), damaged[typeByte]);
      damaged[typeByte] ^= 0x02;
      Files.write(damagedPath, damaged);
      try (ReadOnlyFile file = ReadOnlyFile.open(damagedPath)) {
        BlockReader reader = new BlockReader(file, file.size() - 16, compression, allocator);
        CorruptHFileException error =
            assertThrows(
                CorruptHFileException.class,
                () -> reader.readBlock(target.block().offset(), -1, null).release());
        assertTrue(
            error.getMessage().contains("checksum type NULL, checksum slot 0"), error.getMessage());
        assertEquals(target.block().offset(), error.offset());
      }
    }
    assertEquals(0, allocator.stats().usedBufferCount());
  }

  /**
   * A file whose plain reads flip one byte of the first block (a corrupt replica) and, when it has
   * one, whose storage-verified reread returns the true bytes (HDFS reading another replica).
   */
  private static final class CorruptReplicaFile extends ReadOnlyFile {
    private final ReadOnlyFile file;
    private final boolean hasVerifiedPath;
    private final int flipAt;
    int rereads;

    CorruptReplicaFile(ReadOnlyFile file, boolean hasVerifiedPath, int flipAt) {
      super(file.path());
      this.file = file;
      this.hasVerifiedPath = hasVerifiedPath;
      this.flipAt = flipAt;
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public void readFully(long position, dev.cellar.memory.Buf dst, int dstIndex, int length)
        throws IOException {
      file.readFully(position, dst, dstIndex, length);
      if (position <= flipAt && flipAt < position + length) {
        int at = dstIndex + (int) (flipAt - position);
        dst.putByte(at, (byte) (dst.getByte(at) ^ 0x40));
      }
    }

    @Override
    public int read(long position, dev.cellar.memory.Buf dst, int dstIndex, int length)
        throws IOException {
      return file.read(position, dst, dstIndex, length);
    }

    @Override
    public boolean readFullyVerifiedByStorage(
        long position, dev.cellar.memory.Buf dst, int dstIndex, int length) throws IOException {
      if (!hasVerifiedPath) {
        return false;
      }
      rereads++;
      file.readFully(position, dst, dstIndex, length);
      return true;
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }

  @Test
  void aBlockFailingItsChecksumsIsReadAgainThroughTheStoragesOwnChecksumsWhereThereAreAny()
      throws IOException {
    Path path = dir.resolve("replica");
    byte[] payload = new byte[5000];
    new Random(5).nextBytes(payload);
    BlockWriter.WrittenBlock block;
    try (AppendOnlyFile out = AppendOnlyFile.create(path)) {
      block =
          new BlockWriter(out, Compression.NONE, ChecksumType.CRC32C, 16384)
              .write(BlockType.DATA, payload, payload.length);
      out.append(new byte[16], 0, 16);
    }
    int flipAt = BlockHeader.SIZE + 100;
    try (CorruptReplicaFile file = new CorruptReplicaFile(ReadOnlyFile.open(path), true, flipAt)) {
      BlockReader reader = new BlockReader(file, file.size() - 16, Compression.NONE, allocator);
      HFileBlock read = reader.readBlock(block.offset(), block.onDiskSizeWithHeader(), null);
      try {
        assertArrayEquals(payload, read.payload().getBytes(0, read.payloadSize()));
      } finally {
        read.release();
      }
      assertEquals(1, file.rereads);
    }
    try (CorruptReplicaFile file = new CorruptReplicaFile(ReadOnlyFile.open(path), false, flipAt)) {
      BlockReader reader = new BlockReader(file, file.size() - 16, Compression.NONE, allocator);
      CorruptHFileException e =
          assertThrows(
              CorruptHFileException.class,
              () -> reader.readBlock(block.offset(), block.onDiskSizeWithHeader(), null));
      assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }
    assertEquals(0, allocator.stats().usedBufferCount());
  }
}
