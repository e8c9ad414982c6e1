package dev.cellar.observe.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.Cellar;
import dev.cellar.Get;
import dev.cellar.Table;
import dev.cellar.spi.EngineAccess;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI in a real browser: headless Chromium loads the page of a database that ran a known
 * workload, switches through the tabs, and every figure shown (each cell names its /jmx attribute)
 * equals what /jmx says. Beyond the figures: the summary names the version, the start as a date,
 * the uptime, the directory and the ports the server knows; the L2 tab shows the bucket cache when
 * there is one (one row per size class of /jmx) and says how to configure one when there is not;
 * the allocator's rows carry words, not attribute names; the miss-ratio curve is drawn from /jmx's
 * points with the configured size marked; the p99 chart has a log axis, every sample of the sparse
 * charts is drawn (read back from the canvas's pixels, lone samples between idle intervals
 * included), and no chart's labels touch its canvas's edges. Screenshots of each tab go to {@code
 * target/ui-screenshots/}. Skipped, saying so, when Chromium is not installed ({@code .ci/run}
 * installs it).
 */
class WebUiBrowserTest {

  /** Figures that move while the page and the test read them (heap, collections). */
  private static final Set<String> MOVING = Set.of("CellarMemory.heapUsedBytes");

  private static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

  /** Often enough that a burst of Gets between idle spells falls in a sample of its own. */
  private static final int SAMPLE_MILLIS = 250;

  /** How the page shows a time. */
  private static final DateTimeFormatter SHOWN_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx");

  private static final Pattern UPTIME =
      Pattern.compile("(?:(\\d+) d )?(?:(\\d+) h )?(?:(\\d+) min )?(\\d+) s");

  /**
   * Defines {@code drawnSamples(chartId)} in the page: how many non-null samples the chart holds,
   * how many of them have no non-null neighbour, and how many show the colour of a series around
   * their point on the canvas (a grey grid line does not count).
   */
  private static final String DRAWN_SAMPLES =
      """
      window.drawnSamples = (id) => {
        const u = charts[id];
        let total = 0, lone = 0, drawn = 0;
        for (let s = 1; s < u.series.length; s++) {
          const values = u.data[s];
          for (let i = 0; i < values.length; i++) {
            if (values[i] == null) continue;
            total++;
            if (values[i - 1] == null && values[i + 1] == null) lone++;
            const x = Math.round(u.valToPos(u.data[0][i], 'x', true));
            const y = Math.round(u.valToPos(values[i], 'y', true));
            const pixels = u.ctx.getImageData(x - 1, y - 1, 3, 3).data;
            let coloured = false;
            for (let p = 0; p < pixels.length; p += 4) {
              const [r, g, b, a] = pixels.slice(p, p + 4);
              if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured = true;
            }
            if (coloured) drawn++;
          }
        }
        return {total, lone, drawn};
      };
      true""";

  /** For each chart's canvas, whether anything is drawn in its three outermost columns. */
  private static final String INKED_EDGES =
      """
      JSON.stringify(Array.from(document.querySelectorAll('.uplot canvas')).map((canvas) => {
        const context = canvas.getContext('2d');
        const inked = (x) => {
          const pixels = context.getImageData(x, 0, 3, canvas.height).data;
          for (let p = 3; p < pixels.length; p += 4) if (pixels[p] > 0) return true;
          return false;
        };
        return [canvas.closest('[id]').id, inked(0), inked(canvas.width - 3)];
      }))""";

  @TempDir Path directory;

  @Test
  void theTabsShowWhatJmxSays() throws Exception {
    assumeChromium();
    try (Cellar cellar =
            KnownWorkload.openAndRun(
                directory,
                KnownWorkload.config()
                    .with(InfoServerConfig.SAMPLE_INTERVAL_KEY, String.valueOf(SAMPLE_MILLIS)));
        DevTools browser = DevTools.start()) {
      burstsBetweenIdleSpells(cellar);
      long loading = System.currentTimeMillis();
      String base = load(browser, cellar);
      Map<String, JsonElement> jmx = jmx(base);

      int checked = compareShown(browser, jmx, "#tab-summary");
      assertTrue(checked >= 20, "summary figures checked: " + checked);
      checkServerFacts(browser, jmx, loading);
      browser.screenshot(SCREENSHOTS.resolve("summary.png"));
      checkAnnouncedRpcPort(browser, cellar);

      click(browser, "[data-tab=tables]", "#tab-tables");
      assertEquals(
          "t",
          browser
              .evaluate("document.querySelector('#tables-table tr:nth-child(2) td').textContent")
              .getAsString());
      browser.screenshot(SCREENSHOTS.resolve("tables.png"));

      click(browser, "[data-tab=blockcache]", "#tab-blockcache");
      assertTrue(compareShown(browser, jmx, "#cache-summary") >= 10);
      browser.screenshot(SCREENSHOTS.resolve("blockcache-summary.png"));
      click(browser, "[data-subtab=cache-l1]", "#cache-l1");
      assertTrue(compareShown(browser, jmx, "#cache-l1") >= 7);
      browser.screenshot(SCREENSHOTS.resolve("blockcache-l1.png"));
      click(browser, "[data-subtab=cache-l2]", "#cache-l2");
      assertFalse(visible(browser, "#l2-none"), "an L2 is configured");
      assertTrue(compareShown(browser, jmx, "#cache-l2") >= 7);
      long sizeClasses =
          jmx.keySet().stream()
              .filter(k -> k.matches("CellarBlockCache\\.bucketSizeClass\\d+TotalSlots"))
              .count();
      assertEquals(
          sizeClasses,
          browser.evaluate("document.querySelectorAll('#bucket-table tr').length - 1").getAsLong(),
          "one row per size class");
      browser.screenshot(SCREENSHOTS.resolve("blockcache-l2.png"));
      click(browser, "[data-subtab=cache-allocator]", "#cache-allocator");
      assertTrue(compareShown(browser, jmx, "#cache-allocator") >= 5);
      checkAllocatorLabels(browser);
      browser.screenshot(SCREENSHOTS.resolve("blockcache-allocator.png"));
      click(browser, "[data-subtab=cache-curve]", "#cache-curve");
      assertTrue(compareShown(browser, jmx, "#cache-curve") >= 6);
      browser.await("document.querySelector('#chart-curve canvas') !== null", 10);
      assertEquals(
          31,
          browser
              .evaluate("Number(document.getElementById('chart-curve').dataset.points)")
              .getAsLong(),
          "one point per size of /jmx's curve");
      assertEquals(
          jmx.get("CellarMissRatioCurve.configuredCacheSize").getAsDouble() / 1048576,
          browser
              .evaluate("Number(document.getElementById('chart-curve').dataset.configuredMiB)")
              .getAsDouble(),
          1e-9,
          "the configured size is marked");
      browser.screenshot(SCREENSHOTS.resolve("blockcache-curve.png"));

      click(browser, "[data-tab=charts]", "#tab-charts");
      assertTrue(
          browser.evaluate("typeof uPlot === 'function'").getAsBoolean(),
          "uPlot loaded from the jar");
      browser.await("document.querySelectorAll('#tab-charts canvas').length >= 6", 10);
      checkCharts(browser);
      browser.screenshot(SCREENSHOTS.resolve("charts.png"));
    }
  }

  @Test
  void withoutAnL2TheL2TabSaysHowToConfigureOne() throws Exception {
    assumeChromium();
    try (Cellar cellar = KnownWorkload.openAndRun(directory, KnownWorkload.withoutL2());
        DevTools browser = DevTools.start()) {
      load(browser, cellar);
      click(browser, "[data-tab=blockcache]", "#tab-blockcache");
      click(browser, "[data-subtab=cache-l2]", "#cache-l2");
      assertTrue(visible(browser, "#l2-none"), "the L2 tab says there is none");
      String notice =
          browser
              .evaluate("document.getElementById('l2-none').textContent")
              .getAsString()
              .replaceAll("\\s+", " ");
      assertTrue(notice.startsWith("No L2 configured (set hbase.bucketcache.ioengine"), notice);
      assertFalse(visible(browser, "#l2-present"), "no table of an L2 that is not there");
      browser.screenshot(SCREENSHOTS.resolve("blockcache-l2-none.png"));
    }
  }

  @Test
  void withoutABlockCacheBothTiersSaySo() throws Exception {
    assumeChromium();
    try (Cellar cellar = KnownWorkload.openAndRun(directory, KnownWorkload.withoutBlockCache());
        DevTools browser = DevTools.start()) {
      load(browser, cellar);
      click(browser, "[data-tab=blockcache]", "#tab-blockcache");
      click(browser, "[data-subtab=cache-l1]", "#cache-l1");
      assertTrue(visible(browser, "#cache-none"), "the L1 tab says there is no block cache");
      assertFalse(visible(browser, "#l1-present"), "no table of an L1 that is not there");
      browser.screenshot(SCREENSHOTS.resolve("blockcache-none.png"));
      click(browser, "[data-subtab=cache-l2]", "#cache-l2");
      String notice =
          browser
              .evaluate("document.getElementById('l2-none').innerText")
              .getAsString()
              .replaceAll("\\s+", " ")
              .trim();
      assertEquals(
          "No L2 configured (set hbase.bucketcache.ioengine, with hbase.bucketcache.size in MiB).",
          notice);
    }
  }

  private static void assumeChromium() {
    Assumptions.assumeTrue(
        Files.isExecutable(DevTools.CHROMIUM),
        "skipped: no Chromium at "
            + DevTools.CHROMIUM
            + " for the web UI's browser test (apt-get install -y chromium"
            + " chromium-driver; .ci/run installs it)");
  }

  /** Opens {@code cellar}'s page and waits for its first refresh; returns the server's base URL. */
  private static String load(DevTools browser, Cellar cellar) throws Exception {
    String base = "http://127.0.0.1:" + cellar.infoServerAddress().orElseThrow().getPort();
    browser.navigate(base + "/");
    browser.await("document.body && Number(document.body.dataset.refreshes || 0) >= 1", 30);
    return base;
  }

  /**
   * Five bursts of Gets, each after idle samples and followed by one, so that the charts hold
   * samples with no neighbour.
   */
  private static void burstsBetweenIdleSpells(Cellar cellar) throws Exception {
    Table table = cellar.table("t");
    for (int burst = 0; burst < 5; burst++) {
      Thread.sleep(3L * SAMPLE_MILLIS);
      for (int i = 0; i < 20; i++) {
        table.get(new Get(KnownWorkload.row(i))).close();
      }
    }
    Thread.sleep(2L * SAMPLE_MILLIS);
  }

  /**
   * The summary's version, uptime, directory and ports equal what the server knows; no time there
   * reads as epoch milliseconds.
   */
  private void checkServerFacts(DevTools browser, Map<String, JsonElement> jmx, long loading)
      throws Exception {
    assertEquals(ObservabilityTest.projectVersion(), field(browser, "version"));
    assertEquals(
        URI.create(browser.evaluate("location.href").getAsString()).getPort(),
        Integer.parseInt(field(browser, "infoPort")));
    assertTrue(field(browser, "rpcPort").startsWith("none"), field(browser, "rpcPort"));
    assertTrue(
        Files.isSameFile(Path.of(field(browser, "directory")), directory),
        field(browser, "directory"));

    String uptime = field(browser, "uptime");
    Matcher parts = UPTIME.matcher(uptime);
    assertTrue(parts.matches(), "uptime reads as days, hours, minutes and seconds: " + uptime);
    long seconds = 0;
    int[] unit = {86_400, 3_600, 60, 1};
    for (int k = 0; k < unit.length; k++) {
      seconds += parts.group(k + 1) == null ? 0 : Long.parseLong(parts.group(k + 1)) * unit[k];
    }
    long start = jmx.get("Server.regionServerStartTime").getAsLong();
    assertTrue(
        seconds >= (loading - start) / 1000 - 1
            && seconds <= (System.currentTimeMillis() - start) / 1000 + 1,
        "uptime " + uptime + " since the start at " + start);
    String summary =
        browser.evaluate("document.getElementById('tab-summary').innerText").getAsString();
    assertFalse(summary.matches("(?s).*\\b\\d{13}\\b.*"), "no epoch milliseconds: " + summary);
  }

  /** The RPC port a server over the database announces shows at the page's next refresh. */
  private static void checkAnnouncedRpcPort(DevTools browser, Cellar cellar) throws Exception {
    EngineAccess.engine(cellar).servesRpcOn(16020);
    browser.await("document.querySelector('[data-field=rpcPort]').textContent === '16020'", 10);
  }

  /** Each allocator row's label is words, not the /jmx attribute its cell names. */
  private static void checkAllocatorLabels(DevTools browser) throws Exception {
    JsonArray rows =
        JsonParser.parseString(
                browser
                    .evaluate(
                        "JSON.stringify(Array.from("
                            + "document.querySelectorAll('#allocator-table tr')).filter(tr => tr.querySelector("
                            + "'[data-metric]')).map(tr => [tr.querySelector('th').textContent,"
                            + " tr.querySelector('[data-metric]').dataset.metric]))")
                    .getAsString())
            .getAsJsonArray();
    assertTrue(rows.size() >= 20, "allocator rows: " + rows);
    for (JsonElement row : rows) {
      String label = row.getAsJsonArray().get(0).getAsString();
      String metric = row.getAsJsonArray().get(1).getAsString();
      String attribute = metric.substring(metric.indexOf('.') + 1);
      assertTrue(
          label.contains(" ") && !label.contains(attribute) && !label.matches(".*\\b[a-z]+[A-Z].*"),
          "a label in words for " + metric + ": " + label);
    }
  }

  /**
   * The p99 chart has a log axis; every sample of the hit-ratio and p99 charts shows on the canvas,
   * lone ones too; no chart draws into its canvas's outermost columns, where a label too wide for
   * its axis would be cut.
   */
  private static void checkCharts(DevTools browser) throws Exception {
    assertEquals(
        3,
        browser.evaluate("charts['chart-p99'].scales.y.distr").getAsInt(),
        "p99 latency on a log axis");
    browser.evaluate(DRAWN_SAMPLES);
    for (String chart : new String[] {"chart-hits", "chart-p99"}) {
      browser.await("drawnSamples('" + chart + "').lone >= 1", 15);
      JsonObject drawn =
          JsonParser.parseString(
                  browser.evaluate("JSON.stringify(drawnSamples('" + chart + "'))").getAsString())
              .getAsJsonObject();
      assertEquals(
          drawn.get("total").getAsInt(),
          drawn.get("drawn").getAsInt(),
          chart + ": every sample drawn, the lone ones too: " + drawn);
    }
    JsonArray edges =
        JsonParser.parseString(browser.evaluate(INKED_EDGES).getAsString()).getAsJsonArray();
    assertEquals(7, edges.size(), "six charts and the miss-ratio curve: " + edges);
    for (JsonElement edge : edges) {
      JsonArray chart = edge.getAsJsonArray();
      assertFalse(
          chart.get(1).getAsBoolean() || chart.get(2).getAsBoolean(),
          chart.get(0).getAsString() + ": a label reaches the canvas's edge");
    }
  }

  private static String field(DevTools browser, String name) throws Exception {
    return browser
        .evaluate("document.querySelector('#about-table [data-field=" + name + "]').textContent")
        .getAsString();
  }

  private static boolean visible(DevTools browser, String selector) throws Exception {
    return browser
        .evaluate("document.querySelector('" + selector + "').offsetParent !== null")
        .getAsBoolean();
  }

  private static void click(DevTools browser, String button, String panel) throws Exception {
    browser.evaluate("document.querySelector('" + button + "').click()");
    browser.await("document.querySelector('" + panel + "').offsetParent !== null", 5);
  }

  /**
   * Checks every figure cell under {@code scope} against /jmx (a time to the second, as the page
   * shows it); returns how many.
   */
  private static int compareShown(DevTools browser, Map<String, JsonElement> jmx, String scope)
      throws Exception {
    JsonArray cells =
        JsonParser.parseString(
                browser
                    .evaluate(
                        "JSON.stringify(Array.from("
                            + "document.querySelectorAll('"
                            + scope
                            + " [data-metric]')).map(e => [e.dataset.metric,"
                            + " e.textContent, e.dataset.format || '']))")
                    .getAsString())
            .getAsJsonArray();
    int checked = 0;
    for (JsonElement cell : cells) {
      String metric = cell.getAsJsonArray().get(0).getAsString();
      String shown = cell.getAsJsonArray().get(1).getAsString();
      String shape = cell.getAsJsonArray().get(2).getAsString();
      if (MOVING.contains(metric) || metric.contains("PauseTime")) {
        continue;
      }
      JsonElement expected = jmx.get(metric);
      assertTrue(expected != null, "the page shows " + metric + ", which /jmx lacks");
      if (shape.equals("time")) {
        assertEquals(
            expected.getAsLong() / 1000,
            OffsetDateTime.parse(shown, SHOWN_TIME).toEpochSecond(),
            metric + ": " + shown);
      } else if (expected.getAsJsonPrimitive().isNumber()) {
        double want = expected.getAsDouble();
        double got = Double.parseDouble(shown.replace(",", ""));
        assertEquals(
            want, got, Math.max(1e-4, Math.abs(want) * 1e-6), metric + ": the page shows " + shown);
      } else {
        assertEquals(expected.getAsString(), shown, metric);
      }
      checked++;
    }
    return checked;
  }

  /** Every attribute of Cellar's beans under "sub.attribute", as the page names them. */
  private static Map<String, JsonElement> jmx(String base) throws Exception {
    String body =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            base
                                + "/jmx?qry="
                                + URLEncoder.encode(
                                    "Hadoop:service=HBase,*", StandardCharsets.UTF_8)))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    Map<String, JsonElement> values = new HashMap<>();
    for (JsonElement bean :
        JsonParser.parseString(body).getAsJsonObject().getAsJsonArray("beans")) {
      JsonObject object = bean.getAsJsonObject();
      String name = object.get("name").getAsString();
      String sub =
          name.contains("sub=")
              ? name.substring(name.indexOf("sub=") + 4)
              : name.substring(name.indexOf("name=") + 5);
      for (Map.Entry<String, JsonElement> entry : object.entrySet()) {
        values.put(sub + "." + entry.getKey(), entry.getValue());
      }
    }
    return values;
  }
}
