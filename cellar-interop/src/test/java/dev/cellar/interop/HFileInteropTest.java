package dev.cellar.interop;

import static dev.cellar.interop.CellAssertions.assertSameCells;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Cell;
import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.HFileBlock;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.hfile.Trailer;
import dev.cellar.interop.Spec.Bloom;
import dev.cellar.interop.Spec.Encoding;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.BloomType;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files cross between HBase and Cellar in both directions, cell for cell: every encoding and
 * compression, tags, many versions, delete markers of every kind and bloom filters. Cellar's files
 * pass HBase's checksum verification and bloom lookups, and with no compression their block layout
 * is HBase's own, block for block.
 */
@ExtendWith(TestSeedExtension.class)
class HFileInteropTest {

  private static final int CELLS = 3_000;
  private static final Spec SMALL_BLOCKS = Spec.defaults().withBlockSizes(4 * 1024, 1024);

  private static HBaseHFiles hbase;

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);

  @BeforeAll
  static void openHBase() throws IOException {
    hbase = new HBaseHFiles();
  }

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  static Stream<Arguments> matrix() {
    List<Arguments> out = new ArrayList<>();
    int i = 0;
    for (Encoding encoding : Encoding.values()) {
      for (Compression compression :
          List.of(
              Compression.NONE,
              Compression.GZ,
              Compression.SNAPPY,
              Compression.LZ4,
              Compression.ZSTD)) {
        Bloom bloom = Bloom.values()[i % Bloom.values().length];
        out.add(Arguments.of(encoding, compression, bloom));
        i++;
      }
    }
    return out.stream();
  }

  private static Spec spec(Encoding encoding, Compression compression, Bloom bloom) {
    return SMALL_BLOCKS.withEncoding(encoding).withCompression(compression).withBloom(bloom);
  }

  @ParameterizedTest(name = "{0} {1} bloom {2}")
  @MethodSource("matrix")
  void cellarReadsWhatHBaseWrote(
      Encoding encoding, Compression compression, Bloom bloom, TestSeed seed) throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Path file = dir.resolve("hbase.hfile");
    Spec spec = spec(encoding, compression, bloom);
    hbase.write(file, cells, spec);

    assertSameCells(cells, CellarHFiles.read(file, allocator));
    try (HFileReader reader = HFileReader.open(file, allocator);
        HFileScanner scanner = reader.scanner(true)) {
      Random random = new Random(seed.value());
      for (int probe = 0; probe < 200; probe++) {
        CellSpec target = cells.get(random.nextInt(cells.size()));
        Cell key = target.toCellar();
        assertEquals(HFileScanner.EXACT, scanner.seekTo(key));
        assertEquals(target, CellSpec.fromCellar(scanner.current()));
        assertTrue(
            reader.mightContain(target.row(), target.qualifier()),
            "bloom false negative for an HBase file");
      }
      assertEquals(
          bloom == Bloom.NONE ? BloomType.NONE : BloomType.valueOf(bloom.name()),
          reader.bloomType());
    }
    assertEquals(0, allocator.stats().usedBufferCount());
  }

  @ParameterizedTest(name = "{0} {1} bloom {2}")
  @MethodSource("matrix")
  void hbaseReadsWhatCellarWrote(
      Encoding encoding, Compression compression, Bloom bloom, TestSeed seed) throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Path file = dir.resolve("cellar.hfile");
    Spec spec = spec(encoding, compression, bloom);
    CellarHFiles.write(file, cells, CellarHFiles.context(spec));
    assertSameCells(cells, hbase.read(file));
    List<BlockInfo> blocks = hbase.readBlocks(file);
    assertTrue(blocks.stream().anyMatch(b -> b.type() == BlockType.LEAF_INDEX), blocks::toString);
    Trailer ours;
    try (HFileReader reader = HFileReader.open(file, allocator)) {
      ours = reader.trailer();
    }
    Trailer theirs = hbase.trailer(file);
    assertEquals(ours.entryCount(), theirs.entryCount());
    assertEquals(ours.numDataIndexLevels(), theirs.numDataIndexLevels());
    assertEquals(ours.dataIndexCount(), theirs.dataIndexCount());
    assertEquals(ours.compression(), theirs.compression());
    if (bloom != Bloom.NONE) {
      try (HBaseHFiles.BloomProbe probe = hbase.openBloom(file)) {
        for (CellSpec cell : cells) {
          assertTrue(
              probe.mightContain(cell.row(), cell.qualifier()),
              "HBase's bloom lookup misses " + cell);
        }
      }
    }
  }

  /**
   * The harness writes through HBase's {@code HFileContextBuilder}, whose tag compression is off
   * unless a column family turns it on, so Cellar's side turns it off too; with tag compression on,
   * HBase reading Cellar's files is covered by {@link #hbaseReadsWhatCellarWrote}.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(Encoding.class)
  void withoutCompressionTheScannedSectionMatchesHBaseBlockForBlock(
      Encoding encoding, TestSeed seed) throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Spec spec = spec(encoding, Compression.NONE, Bloom.ROW);
    Path theirs = dir.resolve("hbase.hfile");
    Path ours = dir.resolve("cellar.hfile");
    hbase.write(theirs, cells, spec);
    CellarHFiles.write(
        ours, cells, CellarHFiles.context(spec).toBuilder().compressTags(false).build());
    List<BlockInfo> hbaseBlocks = scannedSection(hbase.readBlocks(theirs));
    List<BlockInfo> cellarBlocks = scannedSection(hbase.readBlocks(ours));
    byte[] hbaseBytes = Files.readAllBytes(theirs);
    byte[] cellarBytes = Files.readAllBytes(ours);
    BlockInfo last = hbaseBlocks.getLast();
    int end = (int) (last.offset() + last.onDiskSizeWithHeader());
    int differs = Arrays.mismatch(Arrays.copyOf(hbaseBytes, end), Arrays.copyOf(cellarBytes, end));
    assertEquals(hbaseBlocks, cellarBlocks);
    assertEquals(
        -1,
        differs,
        "the data, leaf index and bloom blocks are byte-identical; first"
            + " difference at "
            + differs
            + " in "
            + blockAt(hbaseBlocks, differs));
  }

  private static BlockInfo blockAt(List<BlockInfo> blocks, long offset) {
    return blocks.stream()
        .filter(b -> b.offset() <= offset && offset < b.offset() + b.onDiskSizeWithHeader())
        .findFirst()
        .orElse(null);
  }

  /** The blocks written while cells stream in: data, leaf index and bloom chunks. */
  private static List<BlockInfo> scannedSection(List<BlockInfo> blocks) {
    return blocks.stream()
        .filter(
            b ->
                b.type().isData()
                    || b.type() == BlockType.LEAF_INDEX
                    || b.type() == BlockType.BLOOM_CHUNK)
        .toList();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "GZ", "SNAPPY", "LZ4", "ZSTD"})
  void cellarVerifiesEveryBlockOfAnHBaseFile(Compression compression, TestSeed seed)
      throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Path file = dir.resolve("hbase.hfile");
    hbase.write(file, cells, spec(Encoding.FAST_DIFF, compression, Bloom.ROWCOL));
    try (HFileReader reader = HFileReader.open(file, allocator)) {
      long end = Files.size(file) - Trailer.SIZE;
      long offset = 0;
      while (offset < end) {
        HFileBlock block = reader.readBlockUncached(offset, -1, null);
        offset += block.onDiskSizeWithHeader();
        block.release();
      }
      assertEquals(end, offset);
    }
  }
}
