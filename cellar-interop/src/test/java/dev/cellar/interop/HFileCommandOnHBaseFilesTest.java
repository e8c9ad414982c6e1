package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cli.CellarCommand;
import dev.cellar.hfile.BlockType;
import dev.cellar.hfile.ChecksumType;
import dev.cellar.interop.Spec.Bloom;
import dev.cellar.interop.Spec.Encoding;
import dev.cellar.schema.Compression;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code cellar hfile} on files Apache HBase wrote: it describes them and verifies them. */
@ExtendWith(TestSeedExtension.class)
class HFileCommandOnHBaseFilesTest {

  private static HBaseHFiles hbase;

  @TempDir Path dir;

  @BeforeAll
  static void openHBase() throws IOException {
    hbase = new HBaseHFiles();
  }

  private record Run(int exit, String output) {}

  private static Run cellar(String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit = new CommandLine(new CellarCommand()).execute(args);
    } finally {
      System.setOut(original);
    }
    return new Run(exit, captured.toString(StandardCharsets.UTF_8));
  }

  private Path hbaseFile(TestSeed seed) throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), 3_000, 700);
    Path file = dir.resolve("hbase.hfile");
    hbase.write(
        file,
        cells,
        Spec.defaults()
            .withBlockSizes(4 * 1024, 1024)
            .withEncoding(Encoding.FAST_DIFF)
            .withCompression(Compression.SNAPPY)
            .withBloom(Bloom.ROW));
    return file;
  }

  @Test
  void describesAndVerifiesAnHBaseFile(TestSeed seed) throws IOException {
    Path file = hbaseFile(seed);
    Run summary = cellar("hfile", "--blocks", "--cells", "--limit", "2", file.toString());
    assertEquals(0, summary.exit(), summary.output());
    assertTrue(summary.output().contains("compression: SNAPPY"), summary.output());
    assertTrue(summary.output().contains("encoding: FAST_DIFF"), summary.output());
    assertTrue(summary.output().contains("entries: 3000"), summary.output());
    assertTrue(summary.output().contains("LEAF_INDEX"), summary.output());
    assertTrue(summary.output().contains("BLOOM_CHUNK"), summary.output());
    assertTrue(summary.output().contains("bloom: ROW"), summary.output());

    Run verify = cellar("hfile", "--verify", file.toString());
    assertEquals(0, verify.exit(), verify.output());
    assertTrue(verify.output().startsWith("OK: "), verify.output());
    assertTrue(verify.output().contains("3000 cells"), verify.output());
  }

  /**
   * The file of a region server with {@code hbase.hstore.checksum.algorithm=NULL} and {@code
   * hbase.hstore.bytes.per.checksum=512}, 8 KiB blocks, no encoding or compression.
   */
  @Test
  void verifiesAndPrintsAnHBaseFileWithoutChecksums(TestSeed seed) throws IOException {
    List<CellSpec> cells = TestCells.sorted(new Random(seed.value()), 3_000, 700);
    Path file = dir.resolve("hbase-null-checksums.hfile");
    hbase.write(
        file,
        cells,
        Spec.defaults().withBlockSizes(8 * 1024, 1024).withChecksums(ChecksumType.NULL, 512));

    Run verify = cellar("hfile", "--verify", file.toString());
    assertEquals(0, verify.exit(), verify.output());
    assertTrue(verify.output().startsWith("OK: "), verify.output());
    assertTrue(verify.output().contains("3000 cells"), verify.output());
    assertTrue(verify.output().contains("have checksum type NULL"), verify.output());

    Run print = cellar("hfile", "--blocks", "--cells", file.toString());
    assertEquals(0, print.exit(), print.output());
    assertEquals(
        3_000,
        print.output().lines().filter(line -> line.contains(" value=")).count(),
        print.output());
  }

  @Test
  void namesTheBadBlockOfACorruptedCopy(TestSeed seed) throws IOException {
    Path file = hbaseFile(seed);
    BlockInfo victim =
        hbase.readBlocks(file).stream()
            .filter(b -> b.type() == BlockType.ENCODED_DATA)
            .skip(3)
            .findFirst()
            .orElseThrow();
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) victim.offset() + 100] ^= 0x10;
    Path corrupted = dir.resolve("corrupted.hfile");
    Files.write(corrupted, bytes);

    Run verify = cellar("hfile", "--verify", corrupted.toString());
    assertEquals(1, verify.exit(), verify.output());
    assertTrue(
        verify
            .output()
            .startsWith(
                "CORRUPT: "
                    + corrupted
                    + " at offset "
                    + victim.offset()
                    + ": ENCODED_DATA block CRC32C checksum of chunk 0"),
        verify.output());
  }
}
