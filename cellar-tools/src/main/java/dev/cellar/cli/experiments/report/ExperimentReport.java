package dev.cellar.cli.experiments.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one experiment found, ready to be written by {@link ReportWriter}: what it answers, how it
 * was configured and set up, its results as one table (one row per measured case, the columns named
 * once), its charts, the seed's published figures and notes on reading them, and whether it was a
 * smoke run. Immutable.
 *
 * <p>A smoke run is one too small to answer the experiment's question (a reduced scale, sizes
 * raised to the least the experiment runs with): it shows that the experiment runs end to end, and
 * its report says so in its title, its JSON and at the top of its page, with the reasons.
 *
 * @param name the experiment's command name ({@code encoding}, {@code showdown}, ...)
 * @param title what ran, from the run itself (its deploys, ratios, sizes), without the smoke mark
 *     {@link #fullTitle()} adds
 * @param question what the experiment answers, one or two sentences
 * @param configuration the settings the run used (scale, rows, cache sizes, ...)
 * @param setup tables of how the run was set up (each deploy's memory), possibly none
 * @param columns the results table's header
 * @param rows one row per measured case, each as long as {@code columns}; numbers, strings or null
 * @param smokeReasons why this run is a smoke run; empty for a full run
 */
public record ExperimentReport(
    String name,
    String title,
    String question,
    Map<String, Object> configuration,
    List<SetupTable> setup,
    List<String> columns,
    List<List<Object>> rows,
    List<Chart> charts,
    List<Reference> references,
    List<String> notes,
    List<String> smokeReasons) {

  public ExperimentReport {
    configuration = new LinkedHashMap<>(configuration);
    setup = List.copyOf(setup);
    columns = List.copyOf(columns);
    List<List<Object>> copied = new ArrayList<>();
    for (List<Object> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException(
            "report "
                + name
                + ": a row has "
                + row.size()
                + " values for "
                + columns.size()
                + " columns: "
                + row);
      }
      copied.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = List.copyOf(copied);
    charts = List.copyOf(charts);
    references = List.copyOf(references);
    notes = List.copyOf(notes);
    smokeReasons = List.copyOf(smokeReasons);
  }

  public boolean smokeRun() {
    return !smokeReasons.isEmpty();
  }

  /** The title, marked as a smoke run's when it is one. */
  public String fullTitle() {
    return smokeRun() ? "Smoke run: " + title : title;
  }

  /** The report and the machine as JSON-ready maps: what {@code results.json} holds. */
  public Map<String, Object> toJson(Machine machine) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("experiment", name);
    json.put("title", fullTitle());
    json.put("smokeRun", smokeRun());
    json.put("smokeReasons", smokeReasons);
    json.put("question", question);
    json.put("machine", machine.toJson());
    json.put("configuration", configuration);
    json.put("setup", setup.stream().map(SetupTable::toJson).toList());
    List<Map<String, Object>> results = new ArrayList<>();
    for (List<Object> row : rows) {
      Map<String, Object> result = new LinkedHashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        result.put(columns.get(i), row.get(i));
      }
      results.add(result);
    }
    json.put("results", results);
    json.put("charts", charts.stream().map(Chart::toJson).toList());
    json.put("references", references.stream().map(Reference::toJson).toList());
    json.put("notes", notes);
    return json;
  }
}
