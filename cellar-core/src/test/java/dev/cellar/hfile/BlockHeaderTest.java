package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class BlockHeaderTest {

  private static final String FILE = "test.hfile";

  private static BlockHeader sample(int payload, int bytesPerChecksum) {
    int dataSize = BlockHeader.SIZE + payload;
    int checksums = ChecksumType.areaBytes(dataSize, bytesPerChecksum);
    return new BlockHeader(
        BlockType.DATA,
        payload + checksums,
        payload,
        4096L,
        ChecksumType.CRC32C,
        bytesPerChecksum,
        dataSize);
  }

  @Test
  void roundTripsEveryField() throws CorruptHFileException {
    Buf buf = Buf.wrap(new byte[100]);
    BlockHeader header = sample(1000, 16384);
    header.write(buf, 10);
    assertEquals(header, BlockHeader.read(buf, 10, FILE, 0));
    assertEquals(BlockHeader.SIZE + 1000 + 4, header.onDiskSizeWithHeader());
    assertEquals(4, header.checksumBytes());
    byte[] magic = buf.getBytes(10, 8);
    assertEquals("DATABLK*", new String(magic, StandardCharsets.US_ASCII));
  }

  @Test
  void everyMagicIsRecognised() {
    Buf buf = Buf.wrap(new byte[8]);
    for (BlockType type : BlockType.values()) {
      type.writeMagic(buf, 0);
      assertEquals(type, BlockType.fromMagic(buf, 0));
    }
    buf.putLong(0, 0x4441544142FFFFFFL);
    assertNull(BlockType.fromMagic(buf, 0));
  }

  @Test
  void corruptFieldsAreReportedWithFileOffsetExpectedAndFound() {
    corrupt(b -> b.putByte(3, (byte) 'x'), "bad block magic");
    corrupt(b -> b.putInt(BlockHeader.ON_DISK_SIZE_OFFSET, -5), "onDiskSizeWithoutHeader");
    corrupt(
        b -> b.putInt(BlockHeader.UNCOMPRESSED_SIZE_OFFSET, -1), "uncompressedSizeWithoutHeader");
    corrupt(b -> b.putLong(BlockHeader.PREV_BLOCK_OFFSET_OFFSET, -7), "prevBlockOffset");
    corrupt(b -> b.putByte(BlockHeader.CHECKSUM_TYPE_OFFSET, (byte) 9), "checksum type");
    corrupt(b -> b.putInt(BlockHeader.BYTES_PER_CHECKSUM_OFFSET, 0), "bytesPerChecksum");
    corrupt(b -> b.putInt(BlockHeader.ON_DISK_DATA_SIZE_OFFSET, 20), "onDiskDataSizeWithHeader");
    corrupt(b -> b.putInt(BlockHeader.BYTES_PER_CHECKSUM_OFFSET, 512), "checksum area size");
  }

  /**
   * A NULL block's checksum area is HBase's zero-filled room for its chunks, or absent (a
   * bytesPerChecksum of 0, or a file Cellar wrote before it kept the room); any other size is
   * corruption.
   */
  @Test
  void nullChecksumBlocksHaveHBasesAreaOrNone() throws CorruptHFileException {
    int dataSize = BlockHeader.SIZE + 1906;
    int hbaseArea = 4 * ((dataSize + 511) / 512);
    for (int[] sizes : new int[][] {{512, hbaseArea}, {512, 0}, {0, 0}}) {
      BlockHeader header =
          new BlockHeader(
              BlockType.ROOT_INDEX,
              1906 + sizes[1],
              1906,
              -1,
              ChecksumType.NULL,
              sizes[0],
              dataSize);
      Buf buf = Buf.wrap(new byte[BlockHeader.SIZE]);
      header.write(buf, 0);
      assertEquals(header, BlockHeader.read(buf, 0, FILE, 0));
      assertEquals(sizes[1], header.checksumBytes());
    }
    Consumer<Buf> nullType = b -> b.putByte(BlockHeader.CHECKSUM_TYPE_OFFSET, (byte) 0);
    corrupt(
        nullType.andThen(b -> b.putInt(BlockHeader.BYTES_PER_CHECKSUM_OFFSET, 512)),
        "checksum area size");
    corrupt(
        nullType.andThen(b -> b.putInt(BlockHeader.BYTES_PER_CHECKSUM_OFFSET, -1)),
        "bytesPerChecksum");
  }

  private static void corrupt(Consumer<Buf> damage, String expected) {
    Buf buf = Buf.wrap(new byte[BlockHeader.SIZE]);
    sample(5000, 16384).write(buf, 0);
    damage.accept(buf);
    CorruptHFileException error =
        assertThrows(CorruptHFileException.class, () -> BlockHeader.read(buf, 0, FILE, 777));
    String message = error.getMessage();
    assertTrue(message.contains(expected), message);
    assertTrue(message.startsWith(FILE + " at offset 777"), message);
    assertTrue(message.contains("expected") && message.contains("found"), message);
    assertEquals(777, error.offset());
  }

  @Test
  void crc32cMatchesTheStandardCheckValue() {
    Buf buf = Buf.wrap("123456789".getBytes(StandardCharsets.US_ASCII));
    assertEquals(0xE3069283, ChecksumType.CRC32C.compute(buf, 0, 9));
    assertEquals(0xCBF43926, ChecksumType.CRC32.compute(buf, 0, 9));
  }

  @Test
  void checksumsCatchEveryFlippedBit(TestSeed seed) throws CorruptHFileException {
    Random random = new Random(seed.value());
    for (int bytesPerChecksum : new int[] {16, 100, 16384}) {
      int payload = 1 + random.nextInt(700);
      BlockHeader header = sample(payload, bytesPerChecksum);
      byte[] bytes = new byte[header.onDiskSizeWithHeader()];
      Buf block = Buf.wrap(bytes);
      header.write(block, 0);
      for (int i = BlockHeader.SIZE; i < header.onDiskDataSizeWithHeader(); i++) {
        block.putByte(i, (byte) random.nextInt());
      }
      BlockChecksums.write(
          block, header.onDiskDataSizeWithHeader(), ChecksumType.CRC32C, bytesPerChecksum);
      assertDoesNotThrow(() -> BlockChecksums.verify(block, header, FILE, 0));
      for (int trial = 0; trial < 200; trial++) {
        int position = random.nextInt(bytes.length);
        int bit = 1 << random.nextInt(8);
        bytes[position] ^= (byte) bit;
        CorruptHFileException error =
            assertThrows(
                CorruptHFileException.class,
                () -> BlockChecksums.verify(block, header, FILE, 4096),
                "byte " + position);
        assertTrue(error.getMessage().contains("checksum of chunk"), error.getMessage());
        bytes[position] ^= (byte) bit;
      }
    }
  }

  @Test
  void checksumsAreVerifiedWhereverTheBlockLies() throws CorruptHFileException {
    BlockHeader header = sample(500, 100);
    int length = header.onDiskSizeWithHeader();
    byte[] bytes = new byte[length + 13];
    Buf block = Buf.wrap(MemorySegment.ofArray(bytes).asSlice(7, length));
    header.write(block, 0);
    for (int i = BlockHeader.SIZE; i < header.onDiskDataSizeWithHeader(); i++) {
      block.putByte(i, (byte) (i * 31));
    }
    BlockChecksums.write(block, header.onDiskDataSizeWithHeader(), ChecksumType.CRC32C, 100);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment offHeapMemory = arena.allocate(length);
      MemorySegment.copy(MemorySegment.ofArray(bytes), 7, offHeapMemory, 0, length);
      Buf offHeap = Buf.wrap(offHeapMemory);
      for (Buf copy : new Buf[] {block, offHeap}) {
        assertDoesNotThrow(() -> BlockChecksums.verify(copy, header, FILE, 0));
        int position = BlockHeader.SIZE + 250;
        copy.putByte(position, (byte) (copy.getByte(position) ^ 4));
        assertThrows(
            CorruptHFileException.class, () -> BlockChecksums.verify(copy, header, FILE, 0));
        copy.putByte(position, (byte) (copy.getByte(position) ^ 4));
      }
    }
  }
}
