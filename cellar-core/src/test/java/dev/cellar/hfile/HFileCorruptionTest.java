package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.BloomType;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Flips bits in every part of an HFile (each kind of block, their headers and checksums, and every
 * region of the trailer) and truncates it at random lengths: opening and verifying the damaged copy
 * must report a {@link CorruptHFileException}, never succeed and never fail any other way.
 */
@ExtendWith(TestSeedExtension.class)
class HFileCorruptionTest {

  private static final int FLIPS_PER_REGION = 12;

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  private Path writeFile(DataBlockEncoding encoding, Compression compression, BloomType bloom)
      throws IOException {
    Path path = dir.resolve("good.hfile");
    HFileContext context =
        HFileContext.builder()
            .blockSize(512)
            .indexBlockMaxSize(256)
            .indexMinEntries(4)
            .encoding(encoding)
            .compression(compression)
            .bloomType(bloom)
            .includesTags(true)
            .bloomConfig(
                new dev.cellar.hfile.bloom.BloomConfig(
                    0.01f, 7, 512, dev.cellar.hfile.bloom.HashType.MURMUR, 0))
            .build();
    try (HFileWriter writer = HFileWriter.create(path, context)) {
      for (int i = 0; i < 2000; i++) {
        byte[] row = String.format("row-%06d", i).getBytes();
        CellType type = i % 97 == 0 ? CellType.DELETE_FAMILY : CellType.PUT;
        byte[] qualifier = type == CellType.PUT ? ("q" + i % 3).getBytes() : new byte[0];
        List<Tag> tags = i % 5 == 0 ? List.of(new Tag((byte) 1, "acl".getBytes())) : List.of();
        writer.append(
            KeyValue.create(
                    row, "f".getBytes(), qualifier, 1000 + i, type, ("value-" + i).getBytes(), tags)
                .withSequenceId(i + 1));
      }
      writer.appendMetaBlock("meta-a", "some meta bytes".getBytes());
    }
    return path;
  }

  /** Byte ranges of the file by what they hold: each block type, and the trailer. */
  private Map<String, List<long[]>> regions(Path path) throws IOException {
    Map<String, List<long[]>> regions = new java.util.TreeMap<>();
    try (HFileReader reader = HFileReader.open(path, allocator)) {
      long end = Files.size(path) - Trailer.SIZE;
      long offset = 0;
      while (offset < end) {
        HFileBlock block = reader.readBlockUncached(offset, -1, null);
        long size = block.onDiskSizeWithHeader();
        block.release();
        regions
            .computeIfAbsent(block.type().name(), k -> new ArrayList<>())
            .add(new long[] {offset, size});
        offset += size;
      }
      regions.put("TRAILER", List.of(new long[] {end, Trailer.SIZE}));
    }
    return regions;
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource({
    "NONE, NONE, ROW",
    "FAST_DIFF, SNAPPY, ROWCOL",
    "ROW_INDEX_V1, GZ, ROW",
    "DIFF, ZSTD, ROW",
    "PREFIX, LZ4, ROWCOL"
  })
  void everyFlippedBitIsReported(
      DataBlockEncoding encoding, Compression compression, BloomType bloom, TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    Path good = writeFile(encoding, compression, bloom);
    try (HFileReader reader = HFileReader.open(good, allocator)) {
      HFileVerifier.Report report = HFileVerifier.verify(reader);
      assertEquals(2000, report.cells());
      assertTrue(
          report.blocksByType().getOrDefault(BlockType.INTERMEDIATE_INDEX, 0) > 0,
          "the file has every kind of index block: " + report);
    }
    byte[] bytes = Files.readAllBytes(good);
    Map<String, List<long[]>> regions = regions(good);
    assertTrue(
        regions
            .keySet()
            .containsAll(
                List.of(
                    "LEAF_INDEX",
                    "INTERMEDIATE_INDEX",
                    "ROOT_INDEX",
                    "BLOOM_CHUNK",
                    "META",
                    "FILE_INFO",
                    "GENERAL_BLOOM_META",
                    "TRAILER")),
        regions.keySet().toString());
    Map<String, Integer> detected = new java.util.TreeMap<>();
    Path damaged = dir.resolve("damaged.hfile");
    for (Map.Entry<String, List<long[]>> region : regions.entrySet()) {
      for (int flip = 0; flip < FLIPS_PER_REGION; flip++) {
        long[] range = region.getValue().get(random.nextInt(region.getValue().size()));
        int position = (int) (range[0] + random.nextInt((int) range[1]));
        int bit = random.nextInt(8);
        byte[] copy = bytes.clone();
        copy[position] ^= (byte) (1 << bit);
        Files.write(damaged, copy);
        String where =
            region.getKey()
                + " byte "
                + position
                + " ("
                + (position - range[0])
                + " into it) bit "
                + bit;
        expectCorruption(damaged, where);
        detected.merge(region.getKey(), 1, Integer::sum);
      }
    }
    for (int cut = 0; cut < 40; cut++) {
      int length = random.nextInt(bytes.length);
      Files.write(damaged, Arrays.copyOf(bytes, length));
      expectCorruption(damaged, "truncated to " + length + " bytes");
    }
    assertEquals(regions.keySet(), detected.keySet());
    assertEquals(0, allocator.stats().usedBufferCount(), "no buffer leaked on any error path");
  }

  private void expectCorruption(Path damaged, String where) throws IOException {
    try (HFileReader reader = HFileReader.open(damaged, allocator)) {
      HFileVerifier.verify(reader);
      fail("damage went unnoticed: " + where);
    } catch (CorruptHFileException expected) {
      assertTrue(
          expected.getMessage().contains(damaged.toString()), where + ": " + expected.getMessage());
    } catch (RuntimeException e) {
      throw new AssertionError(where + " escaped as " + e, e);
    }
  }
}
