package dev.cellar.cli.pe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.TableDescriptor;
import dev.cellar.cli.CliRun;
import dev.cellar.memory.LeakDetector;
import dev.cellar.memory.LeakLevel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every result PE reads is closed. Without a block cache each block a read touches is a pooled
 * buffer that the read's {@link Result} keeps until it is closed, and leak detection at PARANOID
 * tracks every pooled buffer: so any result PE left open would show up as an outstanding buffer.
 * The first test shows that it does.
 */
class PeLeakCheckTest {

  private static final String NO_CACHE = "-Dhfile.block.cache.size=0";

  @TempDir static Path shared;

  @TempDir Path dir;

  @BeforeAll
  static void writeRows() {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            shared.toString(),
            "--rows",
            "300",
            "--progress",
            "0",
            NO_CACHE,
            "sequentialWrite",
            "2");
    assertEquals(0, run.exit(), run.toString());
  }

  @Test
  void anUnclosedResultIsCaught() throws IOException {
    assertEquals(LeakLevel.PARANOID, LeakDetector.level(), "tests run at PARANOID");
    try (Cellar cellar =
        Cellar.open(dir, CellarConfig.defaults().with("hfile.block.cache.size", "0"))) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      cellar
          .table("t")
          .put(new Put(PeData.format(1)).addColumn("f".getBytes(), "q".getBytes(), "v".getBytes()));
      cellar.admin().flush("t");
      long start = LeakDetector.lastRecordId();
      Result open = cellar.table("t").get(new Get(PeData.format(1)));
      assertFalse(LeakDetector.outstandingSince(start).isEmpty(), "the open result holds a block");
      open.close();
      assertTrue(LeakDetector.outstandingSince(start).isEmpty());
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "randomRead",
        "sequentialRead",
        "scan",
        "scanRange100",
        "randomSeekScan",
        "filterScan"
      })
  void everyReadCommandClosesEveryResult(String command) {
    long start = LeakDetector.lastRecordId();
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            shared.toString(),
            "--rows",
            "30",
            "--progress",
            "0",
            NO_CACHE,
            command,
            "2");
    assertEquals(0, run.exit(), run.toString());
    List<LeakDetector.Outstanding> leaks = LeakDetector.outstandingSince(start);
    assertTrue(leaks.isEmpty(), command + " left " + leaks);
  }

  @Test
  void multiGetClosesEveryResult() {
    long start = LeakDetector.lastRecordId();
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            shared.toString(),
            "--rows",
            "35",
            "--progress",
            "0",
            NO_CACHE,
            "--multiGet=8",
            "randomRead",
            "2");
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.out().contains("70 of 70 gets found their row"), run.toString());
    assertTrue(LeakDetector.outstandingSince(start).isEmpty());
  }
}
