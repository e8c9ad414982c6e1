package dev.cellar.observe.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.cellar.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment's HTML report in a real browser: a tiny {@code cellar bench encoding} (or {@code
 * offheap}) run writes its report, headless Chromium opens the file (offline: a {@code file:} URL,
 * nothing else to load) and every series of every chart must have painted bars in its own colour on
 * the chart's canvas (the offheap report's GC charts excepted: no GC is a zero). A screenshot goes
 * to {@code target/report-screenshots/}. Skipped, saying so, when Chromium is not installed. It
 * lives in this package to drive the browser with the core's {@link DevTools} from its test jar.
 */
class ExperimentReportBrowserTest {

  /** For each chart, the pixels of each series' colour on its canvas, as {id: [count, ...]}. */
  private static final String PAINTED =
      """
      (() => {
        const out = {};
        for (const c of window.cellarCharts) {
          const ctx = c.plot.ctx;
          const data = ctx.getImageData(0, 0, ctx.canvas.width, ctx.canvas.height).data;
          out[c.id] = c.plot.series.slice(1).map(s => {
            const probe = document.createElement("canvas").getContext("2d");
            probe.fillStyle = s.fill(); probe.fillRect(0, 0, 1, 1);
            const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
            let n = 0;
            for (let i = 0; i < data.length; i += 4) {
              if (Math.abs(data[i] - r) < 3 && Math.abs(data[i + 1] - g) < 3
                  && Math.abs(data[i + 2] - b) < 3 && data[i + 3] > 250) n++;
            }
            return n;
          });
        }
        return out;
      })()""";

  @Test
  void encodingReportDrawsEveryChart(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(DevTools.CHROMIUM),
        "skipped: no Chromium at " + DevTools.CHROMIUM + " (.ci/run installs it)");
    CliRun run =
        CliRun.of(
            "bench",
            "encoding",
            "--scale",
            "0.001",
            "--seed",
            "1",
            "--encodings",
            "NONE,FAST_DIFF",
            "--compressions",
            "NONE,GZ",
            "--out",
            dir.toString());
    assertEquals(0, run.exit(), run.toString());
    Path html = dir.resolve("encoding.html");
    try (DevTools browser = DevTools.start()) {
      browser.navigate(html.toUri().toString());
      browser.await("window.cellarReportReady === true", 30);
      JsonObject painted = browser.evaluate(PAINTED).getAsJsonObject();
      assertEquals(4, painted.size(), "charts: " + painted);
      for (String chart : painted.keySet()) {
        for (JsonElement pixels : painted.getAsJsonArray(chart)) {
          assertTrue(
              pixels.getAsInt() > 20, "chart " + chart + " has a series without bars: " + painted);
        }
      }
      assertEquals(
          4,
          browser.evaluate("document.querySelectorAll('#results tr').length").getAsInt() - 1,
          "a table row per pair");
      assertTrue(
          browser
              .evaluate("document.getElementById('smoke').textContent")
              .getAsString()
              .contains("--scale 0.001 is below 1"),
          "the smoke run's banner with its reason");
      browser.screenshot(Path.of("target", "report-screenshots", "encoding.png"));
    }
  }

  @Test
  void offheapReportDrawsEveryWorkload(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(
        Files.isExecutable(DevTools.CHROMIUM),
        "skipped: no Chromium at " + DevTools.CHROMIUM + " (.ci/run installs it)");
    CliRun run =
        CliRun.of(
            "bench",
            "offheap",
            "--memory",
            "40m",
            "--threads",
            "1,2",
            "--runs",
            "1",
            "--run-seconds",
            "0.3",
            "--seed",
            "1",
            "--out",
            dir.toString());
    assertEquals(0, run.exit(), run.toString());
    try (DevTools browser = DevTools.start()) {
      browser.navigate(dir.resolve("offheap.html").toUri().toString());
      browser.await("window.cellarReportReady === true", 30);
      JsonObject painted = browser.evaluate(PAINTED).getAsJsonObject();
      assertEquals(15, painted.size(), "charts: " + painted);
      for (String chart : painted.keySet()) {
        if (chart.endsWith("-gc")) {
          continue;
        }
        for (JsonElement pixels : painted.getAsJsonArray(chart)) {
          assertTrue(
              pixels.getAsInt() > 0, "chart " + chart + " has a deploy without bars: " + painted);
        }
      }
      assertEquals(
          2,
          browser.evaluate("document.querySelectorAll('#setup tr').length").getAsInt() - 1,
          "a memory row per deploy");
      assertTrue(
          browser.evaluate("document.querySelectorAll('#smoke li').length").getAsInt() > 0,
          "40m is below the seed's shares: a smoke run, its floors listed");
      browser.screenshot(Path.of("target", "report-screenshots", "offheap.png"));
    }
  }
}
