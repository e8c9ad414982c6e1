package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.hfile.Compression;
import dev.cellar.hfile.HFileContext;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.hfile.encoding.DataBlockEncoding;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class HFileCommandTest {

  @TempDir Path dir;

  private static String run(int expectedExit, String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit = new CommandLine(new CellarCommand()).execute(args);
    } finally {
      System.setOut(original);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertEquals(expectedExit, exit, output);
    return output;
  }

  private Path write() throws IOException {
    Path file = dir.resolve("cellar.hfile");
    HFileContext context = HFileContext.builder().blockSize(1024)
        .encoding(DataBlockEncoding.ROW_INDEX_V1).compression(Compression.ZSTD).build();
    try (HFileWriter writer = HFileWriter.create(file, context)) {
      for (int i = 0; i < 500; i++) {
        writer.append(KeyValue.create(String.format("r%04d", i).getBytes(), "f".getBytes(),
            "q".getBytes(), 7, CellType.PUT, ("v" + i).getBytes()));
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
    Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length - 100));
    assertTrue(run(1, "hfile", "--verify", truncated.toString()).startsWith("CORRUPT: "));
    run(2, "hfile", dir.resolve("missing").toString());
  }
}
