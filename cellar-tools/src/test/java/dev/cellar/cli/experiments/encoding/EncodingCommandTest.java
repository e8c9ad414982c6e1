package dev.cellar.cli.experiments.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.CellarConfig;
import dev.cellar.cli.CliRun;
import dev.cellar.cli.experiments.ExperimentFiles;
import dev.cellar.observe.http.InfoServerConfig;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar bench encoding} end to end at the documented smoke scale ({@code --scale 0.01}) on
 * four of its pairs: its files and what they say, the block cache's hit ratios per tier in each Get
 * phase, a title naming the pairs that ran and the smoke run's mark.
 */
@ExtendWith(TestSeedExtension.class)
class EncodingCommandTest {

  @Test
  void smokeScaleWritesResultsThatHoldTogether(@TempDir Path dir, TestSeed seed) throws Exception {
    Path out = dir.resolve("results");
    CliRun run =
        CliRun.of(
            "bench",
            "encoding",
            "--scale",
            "0.01",
            "--seed",
            Long.toString(seed.value()),
            "--encodings",
            "NONE,FAST_DIFF",
            "--compressions",
            "NONE,GZ",
            "--out",
            out.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.err().contains("[4/4] FAST_DIFF + GZ"), "progress on stderr: " + run.err());
    assertTrue(run.err().contains("cellar bench encoding: a smoke run"), run.err());

    JsonObject json =
        JsonParser.parseString(Files.readString(out.resolve("encoding.json"))).getAsJsonObject();
    assertEquals(
        "Smoke run: Block encodings NONE and FAST_DIFF with compressions NONE and GZ:"
            + " footprint, scans and Gets of 20,000 rows",
        json.get("title").getAsString());
    ExperimentFiles.assertSmokeRun(json, "--scale 0.01 is below 1");
    JsonArray results = json.getAsJsonArray("results");
    assertEquals(4, results.size());
    Map<String, JsonObject> byPair = new HashMap<>();
    for (var element : results) {
      JsonObject result = element.getAsJsonObject();
      byPair.put(
          result.get("encoding").getAsString() + "+" + result.get("compression").getAsString(),
          result);
      assertEquals(20_000, result.get("rows").getAsLong());
      assertEquals(
          1.0,
          result.get("getCachedHitRatioL1").getAsDouble(),
          "every block cached by the caching scan: " + result);
      assertTrue(
          result.has("getCacheOffHitRatioL1") && result.has("getCacheOffHitRatioL2"),
          result.toString());
      assertTrue(result.get("getCachedHitRatioL2").isJsonNull(), "no L2: " + result);
      for (String figure :
          List.of(
              "diskBytes",
              "cachedBytes",
              "scanCacheOffMillis",
              "scanCachedMillis",
              "getCacheOffP50Micros",
              "getCachedP99Micros")) {
        assertTrue(result.get(figure).getAsDouble() > 0, figure + " of " + result);
      }
    }
    long none = byPair.get("NONE+NONE").get("diskBytes").getAsLong();
    assertTrue(
        byPair.get("NONE+GZ").get("diskBytes").getAsLong() < none / 2,
        "GZ shrinks the file: " + byPair);
    assertTrue(
        byPair.get("FAST_DIFF+NONE").get("diskBytes").getAsLong() < none,
        "FAST_DIFF shrinks the file: " + byPair);
    assertEquals(
        byPair.get("NONE+NONE").get("cachedBytes").getAsLong(),
        byPair.get("NONE+GZ").get("cachedBytes").getAsLong(),
        "compressed blocks are cached decompressed");
    assertTrue(
        byPair.get("FAST_DIFF+GZ").get("cachedBytes").getAsLong()
            < byPair.get("NONE+GZ").get("cachedBytes").getAsLong(),
        "encoded blocks are cached encoded");
    assertEquals(1.0, byPair.get("NONE+NONE").get("diskVsNone").getAsDouble());
    assertEquals(
        875.0 / 2922, byPair.get("FAST_DIFF+NONE").get("seedDiskVsNone").getAsDouble(), 1e-9);
    assertEquals(4, json.getAsJsonArray("charts").size());
    assertTrue(json.getAsJsonObject("machine").get("cores").getAsInt() >= 1);

    List<String> csv = Files.readAllLines(out.resolve("encoding.csv"));
    assertEquals(5, csv.size());
    assertTrue(csv.get(0).startsWith("encoding,compression,rows,diskBytes"), csv.get(0));
    assertTrue(Files.size(out.resolve("encoding.html")) > 40_000, "uPlot inlined");
    ExperimentFiles.assertHtmlMarkedSmoke(out.resolve("encoding.html"));
  }

  @Test
  void throughTheNetworkTheTablesLiveInTheServer(@TempDir Path dir, TestSeed seed)
      throws Exception {
    CellarConfig config =
        CellarConfig.defaults().with(ServerOptions.PORT, "0").with(InfoServerConfig.PORT_KEY, "0");
    try (CellarServer server =
        CellarServer.start(ServerOptions.from(dir.resolve("server"), config), config)) {
      int infoPort = server.database().infoServerAddress().orElseThrow().getPort();
      Path out = dir.resolve("results");
      CliRun run =
          CliRun.of(
              "bench",
              "encoding",
              "--connect",
              server.hostAndPort(),
              "--info-port",
              Integer.toString(infoPort),
              "--scale",
              "0.002",
              "--seed",
              Long.toString(seed.value()),
              "--encodings",
              "NONE,FAST_DIFF",
              "--compressions",
              "NONE,GZ",
              "--out",
              out.toString());
      assertEquals(0, run.exit(), run.toString());
      JsonObject json =
          JsonParser.parseString(Files.readString(out.resolve("encoding.json"))).getAsJsonObject();
      Map<String, JsonObject> byPair = new HashMap<>();
      for (var element : json.getAsJsonArray("results")) {
        JsonObject result = element.getAsJsonObject();
        byPair.put(
            result.get("encoding").getAsString() + "+" + result.get("compression").getAsString(),
            result);
        for (String figure :
            List.of("diskBytes", "cachedBytes", "scanCacheOffMillis", "getCachedP99Micros")) {
          assertTrue(result.get(figure).getAsDouble() > 0, figure + " of " + result);
        }
        assertTrue(
            result.get("getCachedHitRatioCombined").getAsDouble() > 0.9,
            "the server's cache, read from its /jmx, served the cached Gets: " + result);
      }
      long none = byPair.get("NONE+NONE").get("diskBytes").getAsLong();
      assertTrue(
          byPair.get("NONE+GZ").get("diskBytes").getAsLong() < none / 2,
          "GZ shrinks the server's files: " + byPair);
      assertTrue(
          byPair.get("FAST_DIFF+NONE").get("cachedBytes").getAsLong()
              < byPair.get("NONE+NONE").get("cachedBytes").getAsLong(),
          "the server caches encoded blocks encoded: " + byPair);
      assertTrue(
          server.database().admin().listTables().isEmpty(),
          "every pair's table dropped: " + server.database().admin().listTables());
    }
  }

  @Test
  void unknownEncodingIsOneLineNamingIt(@TempDir Path dir) {
    CliRun run =
        CliRun.of("bench", "encoding", "--encodings", "NONE,SHRINK", "--out", dir.toString());
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("SHRINK"), run.err());
    assertTrue(run.err().lines().noneMatch(line -> line.startsWith("\tat ")), run.err());
  }

  @Test
  void scaleMustBePositive(@TempDir Path dir) {
    CliRun run = CliRun.of("bench", "encoding", "--scale", "0", "--out", dir.toString());
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("--scale must be a number above 0, was 0.0"), run.err());
  }
}
