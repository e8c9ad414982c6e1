package dev.cellar.cli.experiments.showdown;

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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar bench showdown} end to end at the documented smoke scale ({@code --scale 0.01}, no
 * {@code --memory}): every deploy in its own JVM at two ratios (one warmed by a scan, one by random
 * reads), its files and what they say: the deploys and ratios that ran in the title and the charts,
 * hit ratios per tier, and the smoke run's mark.
 */
@ExtendWith(TestSeedExtension.class)
class ShowdownCommandTest {

  private static final List<String> EVERY_DEPLOY =
      List.of(
          "LruBlockCache",
          "SlabCache-like",
          "BucketCache heap",
          "BucketCache offheap",
          "BucketCache file on tmpfs");

  @Test
  void smokeScaleMeasuresEveryDeployInItsOwnJvm(@TempDir Path dir, TestSeed seed) throws Exception {
    Path out = dir.resolve("results");
    CliRun run =
        CliRun.of(
            "bench",
            "showdown",
            "--scale",
            "0.01",
            "--ratios",
            "0.5,1.5",
            "--runs",
            "2",
            "--run-seconds",
            "0.3",
            "--tmpfs",
            dir.toString(),
            "--seed",
            Long.toString(seed.value()),
            "--out",
            out.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.err().contains("ratio 1.5, BucketCache file on tmpfs"), run.err());
    assertTrue(run.err().contains("cellar bench showdown: a smoke run"), run.err());

    JsonObject json =
        JsonParser.parseString(Files.readString(out.resolve("showdown.json"))).getAsJsonObject();
    assertEquals(
        "Smoke run: BlockCache showdown of LruBlockCache, SlabCache-like, BucketCache"
            + " heap, BucketCache offheap and BucketCache file on tmpfs at database:RAM ratios 0.5"
            + " and 1.5, 16 MiB allotted to each deploy",
        json.get("title").getAsString());
    ExperimentFiles.assertSmokeRun(json, "--scale 0.01 is below 1");
    assertEquals(10, json.getAsJsonArray("results").size());
    Set<String> deploys = new HashSet<>();
    for (JsonElement element : json.getAsJsonArray("results")) {
      JsonObject result = element.getAsJsonObject();
      deploys.add(result.get("deploy").getAsString());
      assertTrue(result.get("opsPerSecond").getAsDouble() > 0, result.toString());
      double p50 = result.get("p50Micros").getAsDouble();
      double p99 = result.get("p99Micros").getAsDouble();
      assertTrue(
          p50 > 0 && p99 >= p50 && result.get("p999Micros").getAsDouble() >= p99,
          "percentiles in order: " + result);
      String deploy = result.get("deploy").getAsString();
      ExperimentFiles.assertHitRatiosPerTier(result, !deploy.equals("LruBlockCache"));
      assertTrue(result.get("hitRatioCombined").getAsDouble() > 0, "cache hits: " + result);
      if (result.get("dbToRamRatio").getAsDouble() == 0.5 && deploy.equals("LruBlockCache")) {
        assertTrue(
            result.get("hitRatioL1").getAsDouble() > 0.9,
            "the data fits and was scanned into the cache: " + result);
      }
      if (deploy.startsWith("BucketCache") || deploy.equals("SlabCache-like")) {
        assertTrue(result.get("hitRatioL2").getAsDouble() > 0, "the L2 serves: " + result);
      }
    }
    assertEquals(Set.copyOf(EVERY_DEPLOY), deploys);
    for (JsonElement chart : json.getAsJsonArray("charts")) {
      assertEquals(
          EVERY_DEPLOY,
          ExperimentFiles.strings(chart.getAsJsonObject().getAsJsonArray("categories")),
          "a chart's deploys are those that ran");
    }
    JsonObject lru = json.getAsJsonObject("configuration").getAsJsonObject("LRU");
    JsonObject offheap = json.getAsJsonObject("configuration").getAsJsonObject("BUCKET_OFFHEAP");
    assertTrue(offheap.get("l2Bytes").getAsLong() > 0 && lru.get("l2Bytes").getAsLong() == 0);
    assertEquals(
        16L << 20,
        json.getAsJsonObject("configuration").get("memoryBytes").getAsLong(),
        "the smoke scale's allotment is raised to the least, not refused");
    ExperimentFiles.assertSizedPerDeploy(json, EVERY_DEPLOY);
    List<String> csv = Files.readAllLines(out.resolve("showdown.csv"));
    assertEquals(11, csv.size());
    ExperimentFiles.assertHtmlMarkedSmoke(out.resolve("showdown.html"));
  }

  @Test
  void throughTheNetworkEachDeployIsAServerOfItsOwn(@TempDir Path dir, TestSeed seed)
      throws Exception {
    Path out = dir.resolve("results");
    CliRun run =
        CliRun.of(
            "bench",
            "showdown",
            "--connect",
            "--scale",
            "0.01",
            "--ratios",
            "0.5",
            "--deploys",
            "LRU,BUCKET_OFFHEAP",
            "--runs",
            "1",
            "--run-seconds",
            "0.3",
            "--tmpfs",
            dir.toString(),
            "--seed",
            Long.toString(seed.value()),
            "--out",
            out.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.err().contains("BucketCache offheap serves at 127.0.0.1:"), run.err());
    assertTrue(
        run.err().contains("database in the server at 127.0.0.1:"),
        "loaded through the client: " + run.err());

    JsonObject json =
        JsonParser.parseString(Files.readString(out.resolve("showdown.json"))).getAsJsonObject();
    assertTrue(
        json.getAsJsonObject("configuration")
            .get("through")
            .getAsString()
            .startsWith("a cellar serve per deploy"),
        json.toString());
    assertEquals(
        "Smoke run: BlockCache showdown of LruBlockCache and BucketCache offheap at"
            + " database:RAM ratio 0.5, 16 MiB allotted to each deploy",
        json.get("title").getAsString(),
        "the title names the two deploys and one ratio that ran");
    ExperimentFiles.assertSmokeRun(json, "--scale 0.01 is below 1");
    ExperimentFiles.assertSizedPerDeploy(json, List.of("LruBlockCache", "BucketCache offheap"));
    assertEquals(2, json.getAsJsonArray("results").size());
    for (JsonElement element : json.getAsJsonArray("results")) {
      JsonObject result = element.getAsJsonObject();
      assertTrue(result.get("opsPerSecond").getAsDouble() > 0, result.toString());
      ExperimentFiles.assertHitRatiosPerTier(
          result, !result.get("deploy").getAsString().equals("LruBlockCache"));
      if (result.get("deploy").getAsString().equals("LruBlockCache")) {
        assertTrue(
            result.get("hitRatioCombined").getAsDouble() > 0.9,
            "the server's cache, read from its /jmx, was warmed by the scan: " + result);
      } else {
        assertTrue(result.get("hitRatioL2").getAsDouble() > 0, "the L2 serves: " + result);
      }
    }
  }

  @Test
  void aPortIsRefusedSinceEachDeployGetsItsOwnServer(@TempDir Path dir) {
    CliRun run =
        CliRun.of("bench", "showdown", "--connect", "localhost:16020", "--out", dir.toString());
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--connect takes a host here, not 'localhost:16020'"), run.err());
  }

  @Test
  void aMemoryGivenBelowTheLeastIsNamed(@TempDir Path dir) {
    CliRun run = CliRun.of("bench", "showdown", "--memory", "8m", "--out", dir.toString());
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--memory must be at least 16m"), run.err());
    assertFalse(run.err().contains("Exception"), "no stack trace: " + run.err());
  }

  @Test
  void badMemoryIsOneLine(@TempDir Path dir) {
    CliRun run = CliRun.of("bench", "showdown", "--memory", "lots", "--out", dir.toString());
    assertEquals(2, run.exit(), run.toString());
    assertTrue(
        run.err().contains("--memory must be a size such as 1g or 768m, was lots"), run.err());
  }
}
