package dev.cellar.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cli.CliRun;
import org.junit.jupiter.api.Test;

class DemoCommandTest {

  @Test
  void demoWritesThenReadsEveryRow() {
    CliRun run = CliRun.of("demo", "--rows", "2000", "--threads", "2", "--seed", "42");
    assertEquals(0, run.exit(), run.toString());
    assertTrue(
        run.out()
            .contains("cellar pe --load --rows 1000 --valueSize 1000 --seed 42" + " randomRead 2"),
        run.toString());
    assertTrue(run.out().contains("sequentialWrite: 2 thread(s) x 1,000 rows"), run.toString());
    assertTrue(run.out().contains("2,000 of 2,000 gets found their row"), run.toString());
  }

  @Test
  void demoRejectsMoreThreadsThanRows() {
    CliRun run = CliRun.of("demo", "--rows", "1", "--threads", "2");
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--rows at least --threads"), run.toString());
    assertTrue(run.err().contains("Try 'cellar demo --help'"), run.toString());
  }
}
