package dev.cellar.cli.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What every experiment's files must say, checked alike for each: a smoke run marked as one, hit
 * ratios per tier in every result, each deploy's memory explained.
 */
public final class ExperimentFiles {

  private ExperimentFiles() {}

  /** The JSON report is a smoke run's: marked in its title, a reason containing {@code why}. */
  public static void assertSmokeRun(JsonObject json, String why) {
    assertTrue(json.get("smokeRun").getAsBoolean(), "marked as a smoke run");
    assertTrue(
        json.get("title").getAsString().startsWith("Smoke run: "), json.get("title").getAsString());
    List<String> reasons = strings(json.getAsJsonArray("smokeReasons"));
    assertTrue(
        reasons.stream().anyMatch(r -> r.contains(why)), "a reason names " + why + ": " + reasons);
  }

  /** The HTML page is a smoke run's: in its title and in the data its banner is drawn from. */
  public static void assertHtmlMarkedSmoke(Path html) throws IOException {
    String page = Files.readString(html);
    assertTrue(page.contains("<title>Smoke run: "), "the page's title marks the smoke run");
    assertTrue(
        Pattern.compile("\"smokeRun\":\\s*true").matcher(page).find(),
        "the page's banner is drawn from smokeRun");
  }

  /**
   * One result has the three hit ratio columns, the combined one a number; a deploy without an L2
   * has none (null), and one with an L2 has its ratio, or null when no lookup reached it (an
   * inclusive L1 that hit every block).
   */
  public static void assertHitRatiosPerTier(JsonObject result, boolean hasL2) {
    for (String tier : List.of("hitRatioL1", "hitRatioL2", "hitRatioCombined")) {
      assertTrue(result.has(tier), tier + " in " + result);
    }
    assertFalse(result.get("hitRatioCombined").isJsonNull(), "combined ratio: " + result);
    if (!hasL2) {
      assertTrue(result.get("hitRatioL2").isJsonNull(), "no L2, no L2 ratio: " + result);
    }
  }

  /**
   * The report's memory table has a row per deploy that ran, in order, and every heap is its L1
   * plus what it holds beside its caches (no deploy here keeps its L2 on the heap).
   */
  public static void assertSizedPerDeploy(JsonObject json, List<String> deploys) {
    JsonObject table = json.getAsJsonArray("setup").get(0).getAsJsonObject();
    List<String> names = new ArrayList<>();
    for (JsonElement element : table.getAsJsonArray("rows")) {
      JsonArray row = element.getAsJsonArray();
      names.add(row.get(0).getAsString());
      if (!row.get(4).getAsString().equals("heap")) {
        assertEquals(
            row.get(1).getAsDouble(),
            row.get(2).getAsDouble() + row.get(5).getAsDouble(),
            0.11,
            "heap = L1 + what is beside it: " + row);
      }
      assertFalse(row.get(8).getAsString().isEmpty(), "how the heap was sized: " + row);
    }
    assertEquals(deploys, names);
  }

  public static List<String> strings(JsonArray array) {
    List<String> strings = new ArrayList<>();
    array.forEach(e -> strings.add(e.getAsString()));
    return strings;
  }
}
