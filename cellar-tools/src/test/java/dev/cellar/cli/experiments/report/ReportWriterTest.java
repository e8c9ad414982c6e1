package dev.cellar.cli.experiments.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

  /** A report with a text that could break out of the page's script, quotes and commas. */
  static ExperimentReport sample() {
    return new ExperimentReport(
        "sample",
        "A <sample> & report",
        "What does it answer?",
        Map.of("rows", 1000, "note", "</script><b>bold</b>"),
        List.of(
            new SetupTable(
                "Sizes",
                "how they were reached",
                List.of("case", "MiB"),
                List.of(List.of("a", 64.0)))),
        List.of("case", "value", "missing"),
        List.of(Arrays.asList("a, \"quoted\"", 1.5, null), Arrays.asList("b", 2.5, 3L)),
        List.of(
            new Chart(
                "values",
                "Values",
                "ms",
                List.of("a", "b"),
                List.of(
                    new Chart.Series("ours", Arrays.asList(1.5, 2.5)),
                    new Chart.Series("seed", Arrays.asList(null, 3.0))))),
        List.of(
            new Reference(
                "a seed", "its setup", List.of("case", "figure"), List.of(List.of("b", 3.0)))),
        List.of("a note"),
        List.of());
  }

  static final Machine MACHINE = new Machine(2, 8L << 30, "a JDK", "an OS");

  @Test
  void writesJsonCsvAndHtml(@TempDir Path dir) throws Exception {
    List<Path> files = ReportWriter.write(sample(), MACHINE, dir.resolve("out"));
    assertEquals(
        List.of("sample.json", "sample.csv", "sample.html"),
        files.stream().map(p -> p.getFileName().toString()).toList());

    JsonObject json = JsonParser.parseString(Files.readString(files.get(0))).getAsJsonObject();
    assertEquals(2, json.getAsJsonObject("machine").get("cores").getAsInt());
    assertEquals(2, json.getAsJsonArray("results").size());
    assertEquals(
        2.5, json.getAsJsonArray("results").get(1).getAsJsonObject().get("value").getAsDouble());
    assertTrue(json.getAsJsonArray("results").get(0).getAsJsonObject().get("missing").isJsonNull());
    assertEquals(
        "seed",
        json.getAsJsonArray("charts")
            .get(0)
            .getAsJsonObject()
            .getAsJsonArray("series")
            .get(1)
            .getAsJsonObject()
            .get("name")
            .getAsString());

    assertEquals(
        "case,value,missing\r\n\"a, \"\"quoted\"\"\",1.5,\r\nb,2.5,3\r\n",
        Files.readString(files.get(1)));

    String html = Files.readString(files.get(2));
    assertTrue(html.contains("<title>A &lt;sample&gt; &amp; report</title>"), "title escaped");
    assertFalse(html.contains("</script><b>"), "a text cannot close the page's script");
    assertTrue(html.contains("uPlot"), "uPlot inlined");
    assertFalse(
        Pattern.compile("(src|href)=\"?(https?:|//)").matcher(html).find(),
        "the page loads nothing from the network");
    assertFalse(html.contains("@DATA@") || html.contains("@UPLOT_JS@"), "every placeholder filled");
  }

  @Test
  void aSmokeRunIsMarkedInTheTitleTheJsonAndThePage(@TempDir Path dir) throws Exception {
    ExperimentReport full = sample();
    ExperimentReport smoke =
        new ExperimentReport(
            full.name(),
            "Sizes",
            full.question(),
            full.configuration(),
            full.setup(),
            full.columns(),
            full.rows(),
            full.charts(),
            full.references(),
            full.notes(),
            List.of("--scale 0.01 is below 1"));
    assertFalse(full.smokeRun());
    assertEquals(full.title(), full.fullTitle());
    List<Path> files = ReportWriter.write(smoke, MACHINE, dir);

    JsonObject json = JsonParser.parseString(Files.readString(files.get(0))).getAsJsonObject();
    assertEquals("Smoke run: Sizes", json.get("title").getAsString());
    assertTrue(json.get("smokeRun").getAsBoolean());
    assertEquals(
        "--scale 0.01 is below 1", json.getAsJsonArray("smokeReasons").get(0).getAsString());
    assertEquals(
        "how they were reached",
        json.getAsJsonArray("setup").get(0).getAsJsonObject().get("text").getAsString());
    String html = Files.readString(files.get(2));
    assertTrue(html.contains("<title>Smoke run: Sizes</title>"), "the page's title");
    assertTrue(
        html.contains("report.smokeRun") && html.contains("report.setup"),
        "the page draws the smoke banner and the setup tables");
  }

  @Test
  void refusesRowsAndSeriesOfTheWrongLength() {
    IllegalArgumentException row =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ExperimentReport(
                    "x",
                    "x",
                    "x",
                    Map.of(),
                    List.of(),
                    List.of("a", "b"),
                    List.of(List.of(1)),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of()));
    assertTrue(row.getMessage().contains("1 values for 2 columns"), row.getMessage());
    IllegalArgumentException series =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Chart(
                    "c",
                    "c",
                    "ms",
                    List.of("a", "b"),
                    List.of(new Chart.Series("s", List.of(1.0)))));
    assertTrue(
        series.getMessage().contains("series s has 1 values for 2 categories"),
        series.getMessage());
  }
}
