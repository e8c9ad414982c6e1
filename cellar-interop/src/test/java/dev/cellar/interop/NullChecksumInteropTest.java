package dev.cellar.interop;

import static dev.cellar.interop.CellAssertions.assertSameCells;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hfile.BlockHeader;
import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.ChecksumType;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.hfile.HFileVerifier;
import dev.cellar.hfile.Trailer;
import dev.cellar.interop.Spec.Bloom;
import dev.cellar.interop.Spec.Encoding;
import dev.cellar.memory.Buf;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files whose blocks carry checksum type NULL ({@code hbase.hstore.checksum.algorithm=NULL}) cross
 * between HBase and Cellar in both directions, cell for cell, at several block sizes and chunk
 * sizes, with and without compression. Every block HBase writes so keeps the room of its checksums,
 * zero-filled; Cellar reads that layout and writes it, byte for byte where there is no compression.
 */
@ExtendWith(TestSeedExtension.class)
class NullChecksumInteropTest {

  private static final int CELLS = 3_000;
  private static final int[] BLOCK_SIZES = {1024, 8 * 1024, 64 * 1024};
  private static final int[] BYTES_PER_CHECKSUM = {512, 16 * 1024, 100};

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

  /**
   * Every block size with every compression; the chunk size, encoding and bloom rotate so that each
   * block size meets each chunk size.
   */
  static Stream<Arguments> matrix() {
    List<Arguments> out = new ArrayList<>();
    int i = 0;
    for (int blockSize : BLOCK_SIZES) {
      for (Compression compression :
          List.of(
              Compression.NONE,
              Compression.GZ,
              Compression.SNAPPY,
              Compression.LZ4,
              Compression.ZSTD)) {
        out.add(
            Arguments.of(
                blockSize,
                compression,
                BYTES_PER_CHECKSUM[i % 3],
                Encoding.values()[i % Encoding.values().length],
                Bloom.values()[i % Bloom.values().length]));
        i++;
      }
    }
    return out.stream();
  }

  private static Spec spec(
      int blockSize,
      Compression compression,
      int bytesPerChecksum,
      Encoding encoding,
      Bloom bloom) {
    return Spec.defaults()
        .withBlockSizes(blockSize, 1024)
        .withCompression(compression)
        .withEncoding(encoding)
        .withBloom(bloom)
        .withChecksums(ChecksumType.NULL, bytesPerChecksum);
  }

  @ParameterizedTest(name = "block {0} {1} bytesPerChecksum {2} {3} bloom {4}")
  @MethodSource("matrix")
  void cellarReadsWhatHBaseWrote(
      int blockSize,
      Compression compression,
      int bytesPerChecksum,
      Encoding encoding,
      Bloom bloom,
      TestSeed seed)
      throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Path file = dir.resolve("hbase.hfile");
    hbase.write(file, cells, spec(blockSize, compression, bytesPerChecksum, encoding, bloom));
    int blocks = assertNullChecksumLayout(file, bytesPerChecksum);

    assertSameCells(cells, CellarHFiles.read(file, allocator));
    try (HFileReader reader = HFileReader.open(file, allocator)) {
      HFileVerifier.Report report = HFileVerifier.verify(reader);
      assertEquals(blocks, report.blocks());
      assertEquals(blocks, report.blocksWithoutChecksums());
      assertEquals(CELLS, report.cells());
      try (HFileScanner scanner = reader.scanner(true)) {
        Random random = new Random(seed.value());
        for (int probe = 0; probe < 100; probe++) {
          CellSpec target = cells.get(random.nextInt(cells.size()));
          assertEquals(HFileScanner.EXACT, scanner.seekTo(target.toCellar()));
          assertEquals(target, CellSpec.fromCellar(scanner.current()));
        }
      }
    }
    assertEquals(0, allocator.stats().usedBufferCount());
  }

  @ParameterizedTest(name = "block {0} {1} bytesPerChecksum {2} {3} bloom {4}")
  @MethodSource("matrix")
  void hbaseReadsWhatCellarWrote(
      int blockSize,
      Compression compression,
      int bytesPerChecksum,
      Encoding encoding,
      Bloom bloom,
      TestSeed seed)
      throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Path file = dir.resolve("cellar.hfile");
    Spec spec = spec(blockSize, compression, bytesPerChecksum, encoding, bloom);
    CellarHFiles.write(file, cells, CellarHFiles.context(spec));

    assertSameCells(cells, hbase.read(file));
    List<BlockInfo> scanned = hbase.readBlocks(file);
    int blocks = assertNullChecksumLayout(file, bytesPerChecksum);
    assertTrue(scanned.size() < blocks, "HBase read the blocks before the load-on-open section");
    Trailer theirs = hbase.trailer(file);
    assertEquals(CELLS, theirs.entryCount());
    assertEquals(compression, theirs.compression());
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
   * Without compression, the data, leaf index and bloom blocks Cellar writes with checksum type
   * NULL are HBase's own, byte for byte, zero-filled checksum areas included.
   */
  @ParameterizedTest(name = "block {0}")
  @ValueSource(ints = {1024, 8 * 1024, 64 * 1024})
  void withoutCompressionTheScannedSectionMatchesHBaseByteForByte(int blockSize, TestSeed seed)
      throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), CELLS, CELLS / 4);
    Spec spec = spec(blockSize, Compression.NONE, 512, Encoding.FAST_DIFF, Bloom.ROW);
    Path theirs = dir.resolve("hbase.hfile");
    Path ours = dir.resolve("cellar.hfile");
    hbase.write(theirs, cells, spec);
    CellarHFiles.write(
        ours, cells, CellarHFiles.context(spec).toBuilder().compressTags(false).build());
    List<BlockInfo> hbaseBlocks = hbase.readBlocks(theirs);
    BlockInfo last =
        hbaseBlocks.stream()
            .filter(
                b ->
                    b.type().isData()
                        || b.type() == BlockType.LEAF_INDEX
                        || b.type() == BlockType.BLOOM_CHUNK)
            .reduce((first, second) -> second)
            .orElseThrow();
    int end = (int) (last.offset() + last.onDiskSizeWithHeader());
    byte[] hbaseBytes = Arrays.copyOf(Files.readAllBytes(theirs), end);
    byte[] cellarBytes = Arrays.copyOf(Files.readAllBytes(ours), end);
    assertEquals(
        -1, Arrays.mismatch(hbaseBytes, cellarBytes), "first difference in the scanned section");
  }

  /**
   * Walks every block of {@code file} by its headers and checks the layout HBase gives a block with
   * checksum type NULL: the type code 0, the configured chunk size, and after the payload one
   * 4-byte slot per chunk of header and payload, every slot zero.
   *
   * @return the number of blocks
   */
  private static int assertNullChecksumLayout(Path file, int bytesPerChecksum) throws IOException {
    Buf bytes = Buf.wrap(Files.readAllBytes(file));
    long end = bytes.capacity() - Trailer.SIZE;
    int offset = 0;
    int blocks = 0;
    while (offset < end) {
      String where = file.getFileName() + " block at " + offset;
      assertEquals(
          ChecksumType.NULL.code(),
          bytes.getByte(offset + BlockHeader.CHECKSUM_TYPE_OFFSET),
          where);
      assertEquals(
          bytesPerChecksum, bytes.getInt(offset + BlockHeader.BYTES_PER_CHECKSUM_OFFSET), where);
      int dataSize = bytes.getInt(offset + BlockHeader.ON_DISK_DATA_SIZE_OFFSET);
      int onDiskSize = BlockHeader.SIZE + bytes.getInt(offset + BlockHeader.ON_DISK_SIZE_OFFSET);
      int chunks = (dataSize + bytesPerChecksum - 1) / bytesPerChecksum;
      assertEquals(4 * chunks, onDiskSize - dataSize, where + ": checksum area size");
      for (int at = offset + dataSize; at < offset + onDiskSize; at++) {
        assertEquals(0, bytes.getByte(at), where + ": checksum area byte " + (at - offset));
      }
      offset += onDiskSize;
      blocks++;
    }
    assertEquals(end, offset, "blocks end where the trailer starts");
    return blocks;
  }
}
