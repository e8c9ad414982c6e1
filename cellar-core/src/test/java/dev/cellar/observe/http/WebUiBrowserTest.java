package dev.cellar.observe.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.Cellar;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI in a real browser: headless Chromium loads the page of a database that ran a known
 * workload, switches through the tabs, and every figure shown (each cell names its /jmx attribute)
 * equals what /jmx says; the bucket table lists the size classes of /jmx; the miss-ratio curve is
 * drawn from /jmx's points with the configured size marked; the charts draw.
 * Screenshots of each tab go to {@code target/ui-screenshots/}. Skipped, saying so, when
 * Chromium is not installed ({@code .ci/run} installs it).
 */
class WebUiBrowserTest {

  /** Figures that move while the page and the test read them (heap, collections). */
  private static final Set<String> MOVING = Set.of("CellarMemory.heapUsedBytes");

  @TempDir Path directory;

  @Test
  void theTabsShowWhatJmxSays() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(DevTools.CHROMIUM), "skipped: no Chromium at "
        + DevTools.CHROMIUM + " for the web UI's browser test (apt-get install -y chromium"
        + " chromium-driver; .ci/run installs it)");
    Path screenshots = Path.of("target", "ui-screenshots");
    try (Cellar cellar = KnownWorkload.openAndRun(directory);
        DevTools browser = DevTools.start()) {
      String base = "http://127.0.0.1:" + cellar.infoServerAddress().orElseThrow().getPort();
      browser.navigate(base + "/");
      browser.await("document.body && Number(document.body.dataset.refreshes || 0) >= 1", 30);
      Map<String, JsonElement> jmx = jmx(base);

      int checked = compareShown(browser, jmx, "#tab-summary");
      assertTrue(checked >= 20, "summary figures checked: " + checked);
      browser.screenshot(screenshots.resolve("summary.png"));

      click(browser, "[data-tab=tables]", "#tab-tables");
      assertEquals("t", browser.evaluate(
          "document.querySelector('#tables-table tr:nth-child(2) td').textContent")
          .getAsString());
      browser.screenshot(screenshots.resolve("tables.png"));

      click(browser, "[data-tab=blockcache]", "#tab-blockcache");
      assertTrue(compareShown(browser, jmx, "#cache-summary") >= 10);
      browser.screenshot(screenshots.resolve("blockcache-summary.png"));
      click(browser, "[data-subtab=cache-l1]", "#cache-l1");
      assertTrue(compareShown(browser, jmx, "#cache-l1") >= 7);
      browser.screenshot(screenshots.resolve("blockcache-l1.png"));
      click(browser, "[data-subtab=cache-l2]", "#cache-l2");
      assertTrue(compareShown(browser, jmx, "#cache-l2") >= 7);
      long sizeClasses = jmx.keySet().stream()
          .filter(k -> k.matches("CellarBlockCache\\.bucketSizeClass\\d+TotalSlots")).count();
      assertEquals(sizeClasses, browser.evaluate(
          "document.querySelectorAll('#bucket-table tr').length - 1").getAsLong(),
          "one row per size class");
      browser.screenshot(screenshots.resolve("blockcache-l2.png"));
      click(browser, "[data-subtab=cache-allocator]", "#cache-allocator");
      assertTrue(compareShown(browser, jmx, "#cache-allocator") >= 5);
      browser.screenshot(screenshots.resolve("blockcache-allocator.png"));
      click(browser, "[data-subtab=cache-curve]", "#cache-curve");
      assertTrue(compareShown(browser, jmx, "#cache-curve") >= 6);
      browser.await("document.querySelector('#chart-curve canvas') !== null", 10);
      assertEquals(31, browser.evaluate(
          "Number(document.getElementById('chart-curve').dataset.points)").getAsLong(),
          "one point per size of /jmx's curve");
      assertEquals(jmx.get("CellarMissRatioCurve.configuredCacheSize").getAsDouble() / 1048576,
          browser.evaluate("Number(document.getElementById('chart-curve').dataset.configuredMiB)")
              .getAsDouble(), 1e-9, "the configured size is marked");
      browser.screenshot(screenshots.resolve("blockcache-curve.png"));

      click(browser, "[data-tab=charts]", "#tab-charts");
      assertTrue(browser.evaluate("typeof uPlot === 'function'").getAsBoolean(),
          "uPlot loaded from the jar");
      browser.await("document.querySelectorAll('#tab-charts canvas').length >= 6", 10);
      browser.screenshot(screenshots.resolve("charts.png"));
    }
  }

  private static void click(DevTools browser, String button, String panel) throws Exception {
    browser.evaluate("document.querySelector('" + button + "').click()");
    browser.await("document.querySelector('" + panel + "').offsetParent !== null", 5);
  }

  /** Checks every figure cell under {@code scope} against /jmx; returns how many. */
  private static int compareShown(DevTools browser, Map<String, JsonElement> jmx, String scope)
      throws Exception {
    JsonArray cells = JsonParser.parseString(browser.evaluate("JSON.stringify(Array.from("
        + "document.querySelectorAll('" + scope + " [data-metric]')).map(e => [e.dataset.metric,"
        + " e.textContent]))").getAsString()).getAsJsonArray();
    int checked = 0;
    for (JsonElement cell : cells) {
      String metric = cell.getAsJsonArray().get(0).getAsString();
      String shown = cell.getAsJsonArray().get(1).getAsString();
      if (MOVING.contains(metric) || metric.contains("PauseTime")) {
        continue;
      }
      JsonElement expected = jmx.get(metric);
      assertTrue(expected != null, "the page shows " + metric + ", which /jmx lacks");
      if (expected.getAsJsonPrimitive().isNumber()) {
        double want = expected.getAsDouble();
        double got = Double.parseDouble(shown.replace(",", ""));
        assertEquals(want, got, Math.max(1e-4, Math.abs(want) * 1e-6),
            metric + ": the page shows " + shown);
      } else {
        assertEquals(expected.getAsString(), shown, metric);
      }
      checked++;
    }
    return checked;
  }

  /** Every attribute of Cellar's beans under "sub.attribute", as the page names them. */
  private static Map<String, JsonElement> jmx(String base) throws Exception {
    String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
        + "/jmx?qry=" + URLEncoder.encode("Hadoop:service=HBase,*", StandardCharsets.UTF_8)))
        .build(), HttpResponse.BodyHandlers.ofString()).body();
    Map<String, JsonElement> values = new HashMap<>();
    for (JsonElement bean : JsonParser.parseString(body).getAsJsonObject()
        .getAsJsonArray("beans")) {
      JsonObject object = bean.getAsJsonObject();
      String name = object.get("name").getAsString();
      String sub = name.contains("sub=") ? name.substring(name.indexOf("sub=") + 4)
          : name.substring(name.indexOf("name=") + 5);
      for (Map.Entry<String, JsonElement> entry : object.entrySet()) {
        values.put(sub + "." + entry.getKey(), entry.getValue());
      }
    }
    return values;
  }
}
