package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.hfile.BlockHeader;
import dev.cellar.hfile.ChecksumType;
import dev.cellar.hfile.HFileContext;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(TestSeedExtension.class)
class HFileCommandTest {

  @TempDir Path dir;

  private static String run(int expectedExit, String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit = CellarCommand.commandLine().execute(args);
    } finally {
      System.setOut(original);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertEquals(expectedExit, exit, output);
    return output;
  }

  private Path write() throws IOException {
    return write(
        HFileContext.builder()
            .blockSize(1024)
            .encoding(DataBlockEncoding.ROW_INDEX_V1)
            .compression(Compression.ZSTD)
            .build());
  }

  private Path write(HFileContext context) throws IOException {
    Path file = Files.createTempFile(dir, "cellar", ".hfile");
    Files.delete(file);
    try (HFileWriter writer = HFileWriter.create(file, context)) {
      for (int i = 0; i < 500; i++) {
        writer.append(
            KeyValue.create(
                String.format("r%04d", i).getBytes(),
                "f".getBytes(),
                "q".getBytes(),
                7,
                CellType.PUT,
                ("v" + i).getBytes()));
      }
    }
    return file;
  }

  @Test
  void printsTrailerFileInfoIndexBlocksAndCells() throws IOException {
    String output = run(0, "hfile", "--blocks", "--cells", "--limit", "3", write().toString());
    assertTrue(output.contains("compression: ZSTD"), output);
    assertTrue(output.contains("encoding: ROW_INDEX_V1"), output);
    assertTrue(output.contains("hfile.LASTKEY"), output);
    assertTrue(output.contains("ENCODED_DATA"), output);
    assertTrue(output.contains("r0000/f:q/7/Put"), output);
    assertTrue(output.contains("r0002/f:q/7/Put"), output);
    assertTrue(!output.contains("r0003/f:q/7/Put"), output);
  }

  @Test
  void verifyPassesAGoodFileAndFailsATruncatedOne() throws IOException {
    Path file = write();
    assertTrue(run(0, "hfile", "--verify", file.toString()).startsWith("OK: "));
    byte[] bytes = Files.readAllBytes(file);
    Path truncated = dir.resolve("truncated.hfile");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 100));
    assertTrue(run(1, "hfile", "--verify", truncated.toString()).startsWith("CORRUPT: "));
    CliRun missing = CliRun.of("hfile", dir.resolve("missing").toString());
    assertEquals(1, missing.exit(), missing::toString);
    assertEquals(
        "cellar hfile: " + dir.resolve("missing") + " is not a file\n",
        missing.err(),
        missing::toString);
  }

  private static final List<List<String>> MODES =
      List.of(
          List.of(),
          List.of("--blocks"),
          List.of("--cells"),
          List.of("--verify"),
          List.of("--blocks", "--cells"));

  private static CliRun runMode(List<String> mode, Path file) {
    List<String> args = new ArrayList<>(List.of("hfile"));
    args.addAll(mode);
    args.add(file.toString());
    return CliRun.of(args.toArray(String[]::new));
  }

  /**
   * The command writes nothing to stderr for a bad file; stderr is the whole JVM's, though, where
   * other tests' background threads may log, so what is checked is that no exception shows there.
   */
  private static void assertNoStackTrace(CliRun run, String context) {
    assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), context);
  }

  private static String lastLine(String out) {
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1];
  }

  @Test
  void everyModeEndsABadFileWithOneCorruptLine() throws IOException {
    byte[] bytes = Files.readAllBytes(write());
    Path truncated = dir.resolve("truncated.hfile");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 100));
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "not an HFile\n".repeat(20));
    Path flipped = dir.resolve("flipped.hfile");
    byte[] damaged = bytes.clone();
    damaged[BlockHeader.SIZE + 20] ^= 0x04;
    Files.write(flipped, damaged);
    for (Path bad : List.of(truncated, text, flipped)) {
      for (List<String> mode : MODES) {
        if (bad == flipped && mode.isEmpty()) {
          continue; // the summary reads no data block
        }
        CliRun run = runMode(mode, bad);
        assertEquals(1, run.exit(), mode + " " + bad + ": " + run);
        assertTrue(
            lastLine(run.out()).startsWith("CORRUPT: " + bad + " at offset "),
            mode + " " + bad + ": " + run);
        assertNoStackTrace(run, mode + " " + bad + ": " + run);
      }
    }
  }

  @Test
  void aFileTheSystemWillNotReadIsUnreadableNotCorrupt() throws IOException {
    Path file = write();
    assumeTrue(
        file.toFile().setReadable(false, false) && !Files.isReadable(file),
        "this user reads files whatever their permissions");
    for (List<String> mode : MODES) {
      CliRun run = runMode(mode, file);
      assertEquals(1, run.exit(), mode + ": " + run);
      assertEquals(
          "UNREADABLE: " + file + ": permission denied", lastLine(run.out()), mode + ": " + run);
      assertNoStackTrace(run, mode + ": " + run);
    }
  }

  /**
   * Random bit flips and truncations in files with and without checksums: every mode either
   * succeeds (a flip in a NULL-checksum block's cell bytes can go unnoticed) or ends with one
   * {@code CORRUPT} line from the reader naming file and offset, and never prints a stack trace.
   */
  @Test
  void randomDamageEndsInOneLineNeverAStackTrace(TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    for (ChecksumType checksums : List.of(ChecksumType.NULL, ChecksumType.CRC32C)) {
      DataBlockEncoding encoding =
          DataBlockEncoding.values()[random.nextInt(DataBlockEncoding.values().length)];
      byte[] bytes =
          Files.readAllBytes(
              write(
                  HFileContext.builder()
                      .blockSize(1024)
                      .indexBlockMaxSize(256)
                      .encoding(encoding)
                      .compression(
                          checksums == ChecksumType.NULL ? Compression.NONE : Compression.GZ)
                      .checksumType(checksums)
                      .bytesPerChecksum(512)
                      .build()));
      Path bad = dir.resolve("bad.hfile");
      for (int trial = 0; trial < 100; trial++) {
        byte[] damaged =
            random.nextInt(5) == 0
                ? Arrays.copyOf(bytes, random.nextInt(bytes.length))
                : bytes.clone();
        if (damaged.length == bytes.length) {
          damaged[random.nextInt(damaged.length)] ^= (byte) (1 << random.nextInt(8));
        }
        Files.write(bad, damaged);
        List<String> mode = MODES.get(random.nextInt(MODES.size()));
        CliRun run = runMode(mode, bad);
        String context =
            "trial " + trial + " " + checksums + " " + encoding + " " + mode + ": " + run;
        assertNoStackTrace(run, context);
        if (checksums != ChecksumType.NULL
            && damaged.length == bytes.length
            && mode.contains("--verify")) {
          assertEquals(1, run.exit(), context);
        }
        if (run.exit() != 0) {
          assertEquals(1, run.exit(), context);
          assertTrue(lastLine(run.out()).startsWith("CORRUPT: " + bad + " at offset "), context);
        }
      }
    }
  }
}
