package dev.cellar.cli.experiments.offheap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.cli.CliRun;
import dev.cellar.cli.experiments.ExperimentFiles;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar bench offheap} end to end at the documented smoke scale ({@code --scale 0.01}, no
 * {@code --memory}), embedded and through the network: both deploys, every workload (PE's and
 * YCSB's), each returning the rows it should, with hit ratios per tier, in a report whose title
 * names what ran and which is marked as a smoke run.
 */
@ExtendWith(TestSeedExtension.class)
class OffheapCommandTest {

  private static final List<String> DEPLOYS = List.of("LruBlockCache", "BucketCache offheap");

  @Test
  void smokeScaleMeasuresEveryPhaseOfBothDeploys(@TempDir Path dir, TestSeed seed)
      throws Exception {
    Path out = dir.resolve("results");
    CliRun run =
        CliRun.of(
            "bench",
            "offheap",
            "--scale",
            "0.01",
            "--threads",
            "1,2",
            "--runs",
            "1",
            "--run-seconds",
            "0.3",
            "--seed",
            Long.toString(seed.value()),
            "--out",
            out.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.err().contains("cellar bench offheap: a smoke run"), run.err());

    JsonObject json =
        JsonParser.parseString(Files.readString(out.resolve("offheap.json"))).getAsJsonObject();
    assertEquals(
        "Smoke run: The off-heap read path against the on-heap one: LruBlockCache and"
            + " BucketCache offheap at 1 and 2 threads, 40 MiB allotted to each deploy",
        json.get("title").getAsString());
    ExperimentFiles.assertSmokeRun(json, "--scale 0.01 is below 1");
    ExperimentFiles.assertSizedPerDeploy(json, DEPLOYS);
    assertEquals(
        40L << 20,
        json.getAsJsonObject("configuration").get("memoryBytes").getAsLong(),
        "the smoke scale's allotment is raised to the least, not refused");
    assertEquals(24, json.getAsJsonArray("results").size(), "2 deploys x 6 workloads x 2");
    for (JsonElement element : json.getAsJsonArray("results")) {
      JsonObject result = element.getAsJsonObject();
      assertTrue(result.get("opsPerSecond").getAsDouble() > 0, result.toString());
      boolean offheap = result.get("deploy").getAsString().equals("BucketCache offheap");
      ExperimentFiles.assertHitRatiosPerTier(result, offheap);
      assertTrue(
          result.get(offheap ? "hitRatioL2" : "hitRatioL1").getAsDouble() > 0.99,
          "every block was warmed into the deploy's data cache: " + result);
      double rowsPerOperation = result.get("rowsPerOperation").getAsDouble();
      switch (result.get("workload").getAsString()) {
        case "randomRead" -> assertEquals(1.0, rowsPerOperation, "every Get finds its row");
        case "scan10000FilterAll" -> assertEquals(0.0, rowsPerOperation, "all filtered out");
        case "scan10000Tenth" -> assertEquals(1000.0, rowsPerOperation, "a tenth returned");
        case "multiGet100" -> assertEquals(100.0, rowsPerOperation, "every row found");
        case "ycsbC" -> assertEquals(1.0, rowsPerOperation, "every record read");
        case "ycsbScan" ->
            assertTrue(
                rowsPerOperation > 1 && rowsPerOperation <= 100,
                "scans of 1 to 100 records: " + result);
        default -> throw new AssertionError("unexpected workload in " + result);
      }
    }
    assertEquals(15, json.getAsJsonArray("charts").size());
    for (JsonElement chart : json.getAsJsonArray("charts")) {
      List<String> series = new ArrayList<>();
      chart
          .getAsJsonObject()
          .getAsJsonArray("series")
          .forEach(s -> series.add(s.getAsJsonObject().get("name").getAsString()));
      assertEquals(DEPLOYS, series, "a chart's series are the deploys that ran");
      assertEquals(
          List.of("1 thread", "2 threads"),
          ExperimentFiles.strings(chart.getAsJsonObject().getAsJsonArray("categories")));
    }
    assertEquals(25, Files.readAllLines(out.resolve("offheap.csv")).size());
    ExperimentFiles.assertHtmlMarkedSmoke(out.resolve("offheap.html"));
  }

  @Test
  void throughTheNetworkBothDeploysServeTheirPhases(@TempDir Path dir, TestSeed seed)
      throws Exception {
    Path out = dir.resolve("results");
    CliRun run =
        CliRun.of(
            "bench",
            "offheap",
            "--connect",
            "--scale",
            "0.01",
            "--threads",
            "2",
            "--runs",
            "1",
            "--run-seconds",
            "0.3",
            "--seed",
            Long.toString(seed.value()),
            "--out",
            out.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.err().contains("LruBlockCache serves at 127.0.0.1:"), run.err());
    JsonObject json =
        JsonParser.parseString(Files.readString(out.resolve("offheap.json"))).getAsJsonObject();
    assertEquals(
        "Smoke run: The off-heap read path against the on-heap one: LruBlockCache and"
            + " BucketCache offheap at 2 threads, 40 MiB allotted to each deploy",
        json.get("title").getAsString());
    assertEquals(12, json.getAsJsonArray("results").size(), "2 deploys x 6 workloads");
    for (JsonElement element : json.getAsJsonArray("results")) {
      JsonObject result = element.getAsJsonObject();
      assertTrue(result.get("opsPerSecond").getAsDouble() > 0, result.toString());
      ExperimentFiles.assertHitRatiosPerTier(
          result, result.get("deploy").getAsString().equals("BucketCache offheap"));
      double rowsPerOperation = result.get("rowsPerOperation").getAsDouble();
      switch (result.get("workload").getAsString()) {
        case "randomRead" -> assertEquals(1.0, rowsPerOperation, "every Get finds its row");
        case "scan10000FilterAll" -> assertEquals(0.0, rowsPerOperation, "all filtered out");
        case "scan10000Tenth" -> assertEquals(1000.0, rowsPerOperation, "a tenth returned");
        case "multiGet100" -> assertEquals(100.0, rowsPerOperation, "every row found");
        case "ycsbC" -> assertEquals(1.0, rowsPerOperation, "every record read");
        case "ycsbScan" ->
            assertTrue(
                rowsPerOperation > 1 && rowsPerOperation <= 100,
                "scans of 1 to 100 records: " + result);
        default -> throw new AssertionError("unexpected workload in " + result);
      }
    }
  }

  @Test
  void aMemoryGivenTooSmallForItsScansIsNamed(@TempDir Path dir) {
    CliRun run = CliRun.of("bench", "offheap", "--memory", "16m", "--out", dir.toString());
    assertEquals(2, run.exit(), run.toString());
    assertTrue(
        run.err()
            .contains(
                "--memory must be at least 40m (PE's table, a quarter of it,"
                    + " must hold a range scan's 10,000 rows), was 16m"),
        run.err());
    assertFalse(run.err().contains("Exception"), "no stack trace: " + run.err());
  }
}
