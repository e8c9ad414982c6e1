package dev.cellar.cli.experiments.offheap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.cli.CliRun;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar bench offheap} end to end at a tiny scale, embedded and through the network: both
 * deploys, every workload (PE's and YCSB's), each returning the rows it should.
 */
@ExtendWith(TestSeedExtension.class)
class OffheapCommandTest {

  @Test
  void tinyRunMeasuresEveryPhaseOfBothDeploys(@TempDir Path dir, TestSeed seed) throws Exception {
    Path out = dir.resolve("results");
    CliRun run = CliRun.of("bench", "offheap", "--memory", "40m", "--threads", "1,2",
        "--runs", "1", "--run-seconds", "0.3", "--seed", Long.toString(seed.value()), "--out",
        out.toString());
    assertEquals(0, run.exit(), run.toString());

    JsonObject json = JsonParser.parseString(Files.readString(out.resolve("offheap.json")))
        .getAsJsonObject();
    assertEquals(24, json.getAsJsonArray("results").size(), "2 deploys x 6 workloads x 2");
    for (JsonElement element : json.getAsJsonArray("results")) {
      JsonObject result = element.getAsJsonObject();
      assertTrue(result.get("opsPerSecond").getAsDouble() > 0, result.toString());
      double rowsPerOperation = result.get("rowsPerOperation").getAsDouble();
      switch (result.get("workload").getAsString()) {
        case "randomRead" -> assertEquals(1.0, rowsPerOperation, "every Get finds its row");
        case "scan10000FilterAll" -> assertEquals(0.0, rowsPerOperation, "all filtered out");
        case "scan10000Tenth" -> assertEquals(1000.0, rowsPerOperation, "a tenth returned");
        case "multiGet100" -> assertEquals(100.0, rowsPerOperation, "every row found");
        case "ycsbC" -> assertEquals(1.0, rowsPerOperation, "every record read");
        case "ycsbScan" -> assertTrue(rowsPerOperation > 1 && rowsPerOperation <= 100,
            "scans of 1 to 100 records: " + result);
        default -> throw new AssertionError("unexpected workload in " + result);
      }
    }
    assertEquals(15, json.getAsJsonArray("charts").size());
    assertEquals(25, Files.readAllLines(out.resolve("offheap.csv")).size());
  }

  @Test
  void throughTheNetworkBothDeploysServeTheirPhases(@TempDir Path dir, TestSeed seed)
      throws Exception {
    Path out = dir.resolve("results");
    CliRun run = CliRun.of("bench", "offheap", "--connect", "--memory", "40m", "--threads", "2",
        "--runs", "1", "--run-seconds", "0.3", "--seed", Long.toString(seed.value()), "--out",
        out.toString());
    assertEquals(0, run.exit(), run.toString());
    assertTrue(run.err().contains("LruBlockCache serves at 127.0.0.1:"), run.err());
    JsonObject json = JsonParser.parseString(Files.readString(out.resolve("offheap.json")))
        .getAsJsonObject();
    assertEquals(12, json.getAsJsonArray("results").size(), "2 deploys x 6 workloads");
    for (JsonElement element : json.getAsJsonArray("results")) {
      JsonObject result = element.getAsJsonObject();
      assertTrue(result.get("opsPerSecond").getAsDouble() > 0, result.toString());
      double rowsPerOperation = result.get("rowsPerOperation").getAsDouble();
      switch (result.get("workload").getAsString()) {
        case "randomRead" -> assertEquals(1.0, rowsPerOperation, "every Get finds its row");
        case "scan10000FilterAll" -> assertEquals(0.0, rowsPerOperation, "all filtered out");
        case "scan10000Tenth" -> assertEquals(1000.0, rowsPerOperation, "a tenth returned");
        case "multiGet100" -> assertEquals(100.0, rowsPerOperation, "every row found");
        case "ycsbC" -> assertEquals(1.0, rowsPerOperation, "every record read");
        case "ycsbScan" -> assertTrue(rowsPerOperation > 1 && rowsPerOperation <= 100,
            "scans of 1 to 100 records: " + result);
        default -> throw new AssertionError("unexpected workload in " + result);
      }
    }
  }

  @Test
  void tooSmallForItsScansIsOneLine(@TempDir Path dir) {
    CliRun run = CliRun.of("bench", "offheap", "--memory", "16m", "--out", dir.toString());
    assertEquals(2, run.exit(), run.toString());
    assertTrue(run.err().contains("needs at least 10000 rows for its range scans"), run.err());
  }
}
