package dev.cellar.cli.experiments.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one experiment found, ready to be written by {@link ReportWriter}: what it answers, how it
 * was configured, its results as one table (one row per measured case, the columns named once),
 * its charts, the seed's published figures and notes on reading them. Immutable.
 *
 * @param name the experiment's command name ({@code encoding}, {@code showdown}, ...)
 * @param question what the experiment answers, one or two sentences
 * @param configuration the settings the run used (scale, rows, cache sizes, ...)
 * @param columns the results table's header
 * @param rows one row per measured case, each as long as {@code columns}; numbers, strings or
 *     null
 */
public record ExperimentReport(String name, String title, String question,
    Map<String, Object> configuration, List<String> columns, List<List<Object>> rows,
    List<Chart> charts, List<Reference> references, List<String> notes) {

  public ExperimentReport {
    configuration = new LinkedHashMap<>(configuration);
    columns = List.copyOf(columns);
    List<List<Object>> copied = new ArrayList<>();
    for (List<Object> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException("report " + name + ": a row has " + row.size()
            + " values for " + columns.size() + " columns: " + row);
      }
      copied.add(java.util.Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = List.copyOf(copied);
    charts = List.copyOf(charts);
    references = List.copyOf(references);
    notes = List.copyOf(notes);
  }

  /** The report and the machine as JSON-ready maps: what {@code results.json} holds. */
  public Map<String, Object> toJson(Machine machine) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("experiment", name);
    json.put("title", title);
    json.put("question", question);
    json.put("machine", machine.toJson());
    json.put("configuration", configuration);
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
