package dev.cellar.interop;

import static dev.cellar.interop.CellAssertions.assertSameCells;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.Trailer;
import dev.cellar.interop.Spec.Bloom;
import dev.cellar.interop.Spec.Encoding;
import dev.cellar.schema.Compression;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Proves the HBase harness: what HBase writes through it, HBase reads back through it. */
@ExtendWith(TestSeedExtension.class)
class HBaseHarnessTest {

  private static final int CELLS = 3_000;

  /** Small blocks and index chunks: dozens of data blocks under a two-level index. */
  private static final Spec SMALL_BLOCKS = Spec.defaults().withBlockSizes(4 * 1024, 1024);

  private static HBaseHFiles hbase;

  @TempDir Path dir;

  @BeforeAll
  static void openHBase() throws IOException {
    hbase = new HBaseHFiles();
  }

  static Stream<Arguments> encodingsAndCompressions() {
    return Arrays.stream(Encoding.values())
        .flatMap(
            encoding ->
                Stream.of(
                        Compression.NONE,
                        Compression.GZ,
                        Compression.SNAPPY,
                        Compression.LZ4,
                        Compression.ZSTD)
                    .map(compression -> Arguments.of(encoding, compression)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("encodingsAndCompressions")
  void readsBackEveryCellWithTagsAndMvcc(Encoding encoding, Compression compression, TestSeed seed)
      throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Path file = dir.resolve("hfile");
    hbase.write(file, cells, SMALL_BLOCKS.withEncoding(encoding).withCompression(compression));

    assertSameCells(cells, hbase.read(file));
    List<BlockInfo> blocks = hbase.readBlocks(file);
    assertTrue(blocks.stream().filter(b -> b.type().isData()).count() > 20, blocks::toString);
    assertTrue(blocks.stream().anyMatch(b -> b.type() == BlockType.LEAF_INDEX), blocks::toString);
    Trailer trailer = hbase.trailer(file);
    assertEquals(2, trailer.numDataIndexLevels());
    assertEquals(compression, trailer.compression());
  }

  @ParameterizedTest(name = "tags {0}, mvcc {1}, {2}")
  @CsvSource({
    "false, false, NONE",
    "false, true, PREFIX",
    "true, false, FAST_DIFF",
    "false, false, ROW_INDEX_V1"
  })
  void dropsWhatTheFileDoesNotInclude(boolean tags, boolean mvcc, Encoding encoding, TestSeed seed)
      throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Path file = dir.resolve("hfile");
    hbase.write(file, cells, SMALL_BLOCKS.withEncoding(encoding).withTagsAndMvcc(tags, mvcc));

    List<CellSpec> expected = cells.stream().map(c -> c.storedAs(tags, mvcc)).toList();
    assertSameCells(expected, hbase.read(file));
  }

  @ParameterizedTest
  @EnumSource(
      value = Bloom.class,
      names = {"ROW", "ROWCOL"})
  void bloomFilterHoldsEveryWrittenKey(Bloom bloom, TestSeed seed) throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Path file = dir.resolve("hfile");
    hbase.write(file, cells, SMALL_BLOCKS.withBloom(bloom).withCompression(Compression.SNAPPY));

    assertSameCells(cells, hbase.read(file));
    try (HBaseHFiles.BloomProbe probe = hbase.openBloom(file)) {
      for (CellSpec cell : cells) {
        assertTrue(probe.mightContain(cell.row(), cell.qualifier()), cell::toString);
      }
      int falsePositives = 0;
      for (int i = CELLS; i < CELLS + 1_000; i++) {
        if (probe.mightContain(TestCells.row(i), TestCells.bytes("q0"))) {
          falsePositives++;
        }
      }
      assertTrue(falsePositives < 100, falsePositives + " false positives in 1000");
    }
    assertTrue(hbase.readBlocks(file).stream().anyMatch(b -> b.type() == BlockType.BLOOM_CHUNK));
  }

  @Test
  void aFlippedBitInADataBlockFailsHBaseChecksums() throws IOException {
    CorruptedFile files = CorruptedFile.write(hbase, dir);

    assertEquals(500, hbase.read(files.original()).size());
    assertFalse(hbase.readBlocks(files.original()).isEmpty());
    IOException blocks = assertThrows(IOException.class, () -> hbase.readBlocks(files.corrupt()));
    assertTrue(
        blocks.getMessage().contains("checksum failure(s) in the block at offset 0"),
        blocks::getMessage);
    IOException scan = assertThrows(IOException.class, () -> hbase.read(files.corrupt()));
    assertTrue(scan.getMessage().contains("checksum failure(s) while scanning"), scan::getMessage);
  }
}
