package dev.cellar.cli.pe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.RegionInfo;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code cellar pe} end to end on tiny tables: every command, the report's fields, JSON output, the
 * load and keep paths, and the rejection of bad options. Every test also runs under the leak check
 * (leak detection PARANOID, see LeakCheckExtension), so a result left open fails it.
 */
class PeCommandTest {

  /** Written once: 2 threads x 500 rows, kept for the read commands. */
  @TempDir static Path shared;

  @TempDir Path dir;

  private static final List<String> REPORT_FIELDS =
      List.of(
          "throughput",
          "ops/s total",
          "per thread ops/s",
          "p50 ",
          "p75 ",
          "p95 ",
          "p99 ",
          "p99.9 ",
          "p99.99 ",
          "max ",
          "bytes allocated per operation",
          "collections",
          " ms",
          "block cache",
          "hit ratio",
          "heap allocation ratio");

  @BeforeAll
  static void writeSharedTable() {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            shared.toString(),
            "--rows",
            "500",
            "--progress",
            "0",
            "--seed",
            "1",
            "sequentialWrite",
            "2");
    assertEquals(0, run.exit(), run.toString());
  }

  private static void assertReport(CliRun run) {
    assertEquals(0, run.exit(), run.toString());
    for (String field : REPORT_FIELDS) {
      assertTrue(run.out().contains(field), "no '" + field + "' in\n" + run);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sequentialWrite", "randomWrite"})
  void writeCommandsWriteEveryRow(String command) {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            dir.toString(),
            "--rows",
            "200",
            "--progress",
            "0",
            "--families",
            "2",
            "--columns",
            "2",
            command,
            "2");
    assertReport(run);
    assertTrue(run.out().contains("400 written"), run.toString());
    assertTrue(run.out().contains("flush "), run.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"randomRead", "sequentialRead"})
  void getCommandsFindEveryRow(String command) {
    CliRun run =
        CliRun.of(
            "pe", "--dir", shared.toString(), "--rows", "500", "--progress", "0", command, "2");
    assertReport(run);
    assertTrue(run.out().contains("1,000 of 1,000 gets found their row"), run.toString());
    assertTrue(!run.out().contains("WARNING"), run.toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "scan",
        "scanRange10",
        "scanRange100",
        "scanRange1000",
        "scanRange10000",
        "randomSeekScan",
        "filterScan"
      })
  void scanCommandsRun(String command) {
    CliRun run =
        CliRun.of(
            "pe", "--dir", shared.toString(), "--rows", "20", "--progress", "0", command, "2");
    assertReport(run);
    Matcher rows = Pattern.compile("([\\d,]+) returned by 40 scan operations").matcher(run.out());
    assertTrue(rows.find(), run.toString());
    long returned = Long.parseLong(rows.group(1).replace(",", ""));
    if (command.equals("filterScan")) {
      assertEquals(0, returned, "random values match no row");
    } else {
      assertTrue(returned >= 40, run.toString());
    }
  }

  @Test
  void scanRangeReadsAtMostItsRange() {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            shared.toString(),
            "--rows",
            "50",
            "--progress",
            "0",
            "scanRange10",
            "1");
    assertReport(run);
    Matcher perOperation = Pattern.compile("\\(([\\d.]+) per operation\\)").matcher(run.out());
    assertTrue(perOperation.find(), run.toString());
    assertEquals(10.0, Double.parseDouble(perOperation.group(1)), run.toString());
  }

  @Test
  void filterAllReadsWithoutReturningRows() {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            shared.toString(),
            "--rows",
            "100",
            "--progress",
            "0",
            "--filterAll",
            "randomRead",
            "2");
    assertReport(run);
    assertTrue(
        run.out().contains("0 of 200 gets found their row (--filterAll returns none)"),
        run.toString());
  }

  @Test
  void multiGetBatchesTheGets() {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            shared.toString(),
            "--rows",
            "100",
            "--progress",
            "0",
            "--multiGet=10",
            "randomRead",
            "2");
    assertReport(run);
    assertTrue(run.out().contains("200 of 200 gets found their row"), run.toString());
  }

  @Test
  void loadWritesThenReadsWithAnOffHeapL2AndWritesJson() throws IOException {
    Path json = dir.resolve("pe.json");
    CliRun run =
        CliRun.of(
            "pe",
            "--rows",
            "300",
            "--progress",
            "0",
            "--load",
            "--compact",
            "--valueZipf",
            "--latency",
            "--json",
            json.toString(),
            "-Dhbase.bucketcache.ioengine=offheap",
            "-Dhbase.bucketcache.size=32",
            "randomRead",
            "2");
    assertReport(run);
    assertTrue(run.out().contains("sequentialWrite: 2 thread(s) x 300 rows"), run.toString());
    assertTrue(run.out().contains("600 of 600 gets found their row"), run.toString());
    assertTrue(run.out().contains("L1 hit ratio"), run.toString());
    assertTrue(run.out().contains("L2 hit ratio"), run.toString());
    assertTrue(run.out().contains("thread 1"), "--latency prints each thread's percentiles");
    String text = Files.readString(json);
    for (String key :
        List.of(
            "\"command\": \"sequentialWrite\"",
            "\"command\": \"randomRead\"",
            "\"opsPerSecond\"",
            "\"perThread\"",
            "\"p50Micros\"",
            "\"p99.99Micros\"",
            "\"maxMicros\"",
            "\"heapBytesPerOperation\"",
            "\"collections\"",
            "\"millis\"",
            "\"tier\": \"L1\"",
            "\"tier\": \"L2\"",
            "\"hitRatio\"",
            "\"allocatorHeapAllocationRatio\"",
            "\"hbase.bucketcache.ioengine\": \"offheap\"")) {
      assertTrue(text.contains(key), "no " + key + " in\n" + text);
    }
    assertTrue(run.err().contains("temporary, deleted at the end"), run.toString());
  }

  @Test
  void aTemporaryDatabaseWithItsLogElsewhereTakesTheLogAlongWhenDeleted() throws IOException {
    Path logs = dir.resolve("logs");
    for (int run = 0; run < 2; run++) {
      CliRun pe =
          CliRun.of(
              "pe",
              "--wal-dir",
              logs.toString(),
              "--rows",
              "50",
              "--progress",
              "0",
              "sequentialWrite",
              "1");
      assertReport(pe);
      assertFalse(Files.exists(logs.resolve("wal")), "run " + run + ": " + pe);
    }
    Path kept = dir.resolve("kept");
    CliRun write =
        CliRun.of(
            "pe",
            "--dir",
            kept.toString(),
            "--wal-dir",
            logs.toString(),
            "--keep",
            "--rows",
            "50",
            "--progress",
            "0",
            "sequentialWrite",
            "1");
    assertReport(write);
    assertTrue(Files.isDirectory(logs.resolve("wal")), write.toString());
    CliRun read =
        CliRun.of(
            "pe",
            "--dir",
            kept.toString(),
            "--wal-dir",
            logs.toString(),
            "--rows",
            "50",
            "--progress",
            "0",
            "randomRead",
            "1");
    assertReport(read);
    assertTrue(read.out().contains("50 of 50 gets found their row"), read.toString());
  }

  @Test
  void sizeGivesTheRowsPerThread() {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            dir.toString(),
            "--size",
            "0.0005",
            "--valueSize",
            "500",
            "--valueRandom",
            "--writeToWAL=false",
            "--progress",
            "0",
            "randomWrite",
            "2");
    assertReport(run);
    assertTrue(run.out().contains("2 thread(s) x 524 rows = 1,048 rows"), run.toString());
  }

  @Test
  void presplitCreatesTheTableSplitAtPesOwnRows() throws IOException {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            dir.toString(),
            "--keep",
            "--rows",
            "200",
            "--progress",
            "0",
            "--presplit",
            "4",
            "sequentialWrite",
            "1");
    assertEquals(0, run.exit(), run.toString());
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      List<RegionInfo> regions = cellar.admin().regions("TestTable");
      assertEquals(4, regions.size());
      assertArrayEquals(PeData.format(50), regions.get(1).startKey());
      assertArrayEquals(PeData.format(150), regions.get(3).startKey());
      long rows = 0;
      try (ResultScanner scanner = cellar.table("TestTable").scanner(new Scan())) {
        for (Result result : scanner) {
          result.close();
          rows++;
        }
      }
      assertEquals(200, rows);
    }
  }

  @Test
  void aReadOfAnEmptyDatabaseSaysToWriteFirst() {
    CliRun run = CliRun.of("pe", "--dir", dir.toString(), "--rows", "10", "randomRead", "1");
    assertEquals(1, run.exit(), run.toString());
    assertTrue(run.err().contains("run a write command first"), run.toString());
    assertTrue(run.err().contains("--load"), run.toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "unknown command 'fooRead'|fooRead 1",
        "<nthreads> must be at least 1|randomRead 0",
        "give --rows or --size, not both|--rows 10 --size 1 randomRead 1",
        "--valueRandom and --valueZipf cannot be used together|--valueRandom --valueZipf"
            + " sequentialWrite 1",
        "--multiGet applies to randomRead only|--multiGet=5 scan 1",
        "--sampleRate must be in (0, 1]|--sampleRate 0 randomRead 1",
        "DATA_BLOCK_ENCODING 'FOO' is not valid|--blockEncoding FOO sequentialWrite 1",
        "COMPRESSION LZO is not available|--compress LZO sequentialWrite 1",
        "--load is for read commands|--load sequentialWrite 1",
        "--families must be at least 1|--families 0 sequentialWrite 1",
        "gives less than one row per thread|--size 0.000000001 sequentialWrite 2",
        "Missing required parameter: '<nthreads>'|randomRead",
        "Unknown option: '--bogus'|--bogus randomRead 1"
      })
  void badOptionsAreRejectedNamingWhatIsWrong(String testCase) {
    String[] parts = testCase.split("\\|");
    String[] args = ("pe --dir " + dir + " " + parts[1]).split(" ");
    CliRun run = CliRun.of(args);
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains(parts[0]), "expected '" + parts[0] + "' in\n" + run);
    assertTrue(run.err().contains("Try 'cellar pe --help'"), run.toString());
  }

  @Test
  void anInvalidSettingIsNamed() {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            dir.toString(),
            "--rows",
            "10",
            "-Dhbase.bucketcache.ioengine=offheap",
            "sequentialWrite",
            "1");
    assertEquals(1, run.exit(), run.toString());
    assertTrue(run.err().contains("hbase.bucketcache.size"), run.toString());
    CliRun tooSmall =
        CliRun.of(
            "pe",
            "--dir",
            dir.toString(),
            "--rows",
            "10",
            "-Dhbase.bucketcache.ioengine=offheap",
            "-Dhbase.bucketcache.size=2",
            "sequentialWrite",
            "1");
    assertEquals(1, tooSmall.exit(), tooSmall.toString());
    assertTrue(tooSmall.err().contains("cannot open the database in " + dir), tooSmall.toString());
    assertTrue(!tooSmall.err().contains("\tat "), "no stack trace: " + tooSmall);
  }

  @Test
  void aDatabaseOpenElsewhereIsOneLineNamingIt() throws IOException {
    try (Cellar holder = Cellar.open(dir, CellarConfig.defaults())) {
      CliRun run =
          CliRun.of(
              "pe",
              "--dir",
              dir.toString(),
              "--rows",
              "10",
              "--progress",
              "0",
              "sequentialWrite",
              "1");
      assertEquals(1, run.exit(), run.toString());
      assertOneLineStartingWith("cellar pe: " + dir + " is in use: ", run);
    }
  }

  @Test
  void anUnreachableFileSystemIsOneLineNamingIt() {
    CliRun run =
        CliRun.of(
            "pe",
            "--dir",
            "hdfs://127.0.0.1:1/pe",
            "--rows",
            "10",
            "--progress",
            "0",
            "sequentialWrite",
            "1");
    assertEquals(1, run.exit(), run.toString());
    assertOneLineStartingWith(
        "cellar pe: hdfs://127.0.0.1:1/pe: cannot reach the file system at"
            + " hdfs://127.0.0.1:1/: ",
        run);
  }

  /** The run's error output is its header line and one line starting with {@code prefix}. */
  private static void assertOneLineStartingWith(String prefix, CliRun run) {
    List<String> lines =
        run.err()
            .lines()
            .filter(line -> !line.startsWith("cellar pe: " + "sequentialWrite, "))
            .toList();
    assertEquals(1, lines.size(), run.toString());
    assertTrue(lines.getFirst().startsWith(prefix), "expected '" + prefix + "' in\n" + run);
  }
}
