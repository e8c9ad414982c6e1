package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoCommandTest {

  @Test
  void demoLoadsReadsEveryRowAndReleasesEveryBuffer() {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit = new CommandLine(new CellarCommand()).execute(
          "demo", "--rows", "3000", "--lookups", "20000", "--threads", "2", "--seed", "42");
    } finally {
      System.setOut(original);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, output);
    assertTrue(output.contains("0 misses"), output);
    assertTrue(output.contains("heap allocation ratio 0.000"), output);
    assertTrue(output.contains("after release: 0 pooled buffers in use"), output);
  }
}
