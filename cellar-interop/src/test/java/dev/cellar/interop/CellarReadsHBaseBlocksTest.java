package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.hfile.BlockReader;
import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.CorruptHFileException;
import dev.cellar.hfile.HFileBlock;
import dev.cellar.hfile.Trailer;
import dev.cellar.interop.Spec.Bloom;
import dev.cellar.interop.Spec.Encoding;
import dev.cellar.io.ReadOnlyFile;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.Compression;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cellar's trailer parser and block reader on files HBase wrote: every block of every compression,
 * found by walking the file from offset 0 with sizes taken from the block headers.
 */
@ExtendWith(TestSeedExtension.class)
class CellarReadsHBaseBlocksTest {

  private static final int CELLS = 3_000;

  private static HBaseHFiles hbase;

  @TempDir Path dir;

  /** Every block in pooled off-heap buffers, so the leak check sees each one. */
  private final BufAllocator allocator =
      new BufAllocator(new BufAllocatorConfig(true, BufAllocatorConfig.DEFAULT_BUFFER_SIZE, 64, 0));

  @BeforeAll
  static void openHBase() throws IOException {
    hbase = new HBaseHFiles();
  }

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  /**
   * A file with every kind of block HBase writes for a store: encoded data, leaf index, bloom
   * chunks, general and delete-family bloom meta.
   */
  private Path writeWithHBase(Compression compression, TestSeed seed) throws IOException {
    Path file = dir.resolve("hfile");
    Spec spec =
        Spec.defaults()
            .withBlockSizes(4 * 1024, 1024)
            .withEncoding(Encoding.FAST_DIFF)
            .withCompression(compression)
            .withBloom(Bloom.ROW);
    hbase.write(file, TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4), spec);
    return file;
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "GZ", "SNAPPY", "LZ4", "ZSTD"})
  void parsesTheTrailerAsHBaseDoes(Compression compression, TestSeed seed) throws IOException {
    Path file = writeWithHBase(compression, seed);
    Trailer cellar = parseTrailer(file);
    Trailer hbaseTrailer = hbase.trailer(file);

    assertEquals(Trailer.COMPARATOR_NAME, cellar.comparatorClassName());
    assertEquals(HBaseHFiles.STORE_COMPARATOR, hbaseTrailer.comparatorClassName());
    assertEquals(hbaseTrailer, withComparator(cellar, hbaseTrailer.comparatorClassName()));
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "GZ", "SNAPPY", "LZ4", "ZSTD"})
  void readsAndVerifiesEveryBlock(Compression compression, TestSeed seed) throws IOException {
    Path file = writeWithHBase(compression, seed);
    Trailer trailer = parseTrailer(file);
    List<BlockInfo> cellar = readAllBlocks(file, trailer.compression());

    List<BlockInfo> hbaseBlocks = hbase.readBlocks(file);
    assertEquals(hbaseBlocks, cellar.subList(0, hbaseBlocks.size()));
    List<BlockInfo> loadOnOpen = cellar.subList(hbaseBlocks.size(), cellar.size());
    assertEquals(trailer.loadOnOpenDataOffset(), loadOnOpen.getFirst().offset());
    assertEquals(
        List.of(
            BlockType.ROOT_INDEX,
            BlockType.ROOT_INDEX,
            BlockType.FILE_INFO,
            BlockType.GENERAL_BLOOM_META,
            BlockType.DELETE_FAMILY_BLOOM_META),
        loadOnOpen.stream().map(BlockInfo::type).toList());
    assertEquals(trailer.fileInfoOffset(), loadOnOpen.get(2).offset());
  }

  @Test
  void detectsAFlippedBitInADataBlock() throws IOException {
    CorruptedFile files = CorruptedFile.write(hbase, dir);

    assertFalse(readAllBlocks(files.original(), Compression.NONE).isEmpty());
    CorruptHFileException e =
        assertThrows(
            CorruptHFileException.class, () -> readAllBlocks(files.corrupt(), Compression.NONE));
    assertEquals(0, e.offset());
  }

  private static Trailer withComparator(Trailer t, String comparatorClassName) {
    return new Trailer(
        t.fileInfoOffset(),
        t.loadOnOpenDataOffset(),
        t.uncompressedDataIndexSize(),
        t.totalUncompressedBytes(),
        t.dataIndexCount(),
        t.metaIndexCount(),
        t.entryCount(),
        t.numDataIndexLevels(),
        t.firstDataBlockOffset(),
        t.lastDataBlockOffset(),
        comparatorClassName,
        t.compression(),
        t.minorVersion());
  }

  private static Trailer parseTrailer(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    byte[] trailer = Arrays.copyOfRange(bytes, bytes.length - Trailer.SIZE, bytes.length);
    return Trailer.parse(trailer, file.toString(), bytes.length);
  }

  /** Walks every block from offset 0 to the trailer, verifying each one's checksums. */
  private List<BlockInfo> readAllBlocks(Path path, Compression compression) throws IOException {
    List<BlockInfo> blocks = new ArrayList<>();
    try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
      long end = file.size() - Trailer.SIZE;
      BlockReader reader = new BlockReader(file, end, compression, allocator);
      long offset = 0;
      while (offset < end) {
        HFileBlock block = reader.readBlock(offset, -1, null);
        try {
          blocks.add(
              new BlockInfo(
                  offset,
                  block.type(),
                  block.onDiskSizeWithHeader(),
                  block.header().uncompressedSizeWithoutHeader()));
          offset += block.onDiskSizeWithHeader();
        } finally {
          block.release();
        }
      }
      assertEquals(end, offset, "blocks end where the trailer starts");
    }
    return blocks;
  }
}
