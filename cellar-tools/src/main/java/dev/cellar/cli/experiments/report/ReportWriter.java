package dev.cellar.cli.experiments.report;

import dev.cellar.cli.pe.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes an experiment's files into its output directory: {@code <name>.json} (everything: machine,
 * configuration, results, charts, published figures), {@code <name>.csv} (the results table) and
 * {@code <name>.html} (the self-contained report). The directory is created when missing; files of
 * an earlier run of the same experiment are replaced.
 */
public final class ReportWriter {

  private ReportWriter() {}

  /** Writes the three files and returns their paths (JSON, CSV, HTML). */
  public static List<Path> write(ExperimentReport report, Machine machine, Path directory)
      throws IOException {
    Files.createDirectories(directory);
    Path json = directory.resolve(report.name() + ".json");
    Path csv = directory.resolve(report.name() + ".csv");
    Path html = directory.resolve(report.name() + ".html");
    Files.writeString(json, Json.write(report.toJson(machine)));
    Files.writeString(csv, Csv.write(report.columns(), report.rows()));
    Files.writeString(html, HtmlReport.render(report, machine));
    return List.of(json, csv, html);
  }
}
