package dev.cellar.cli.experiments.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Figures a seed document published, shown in a report beside the experiment's own: where they come
 * from, the setup they were measured on, and the table of them.
 *
 * @param source the document (title, author, date)
 * @param setup the machine and data the figures were measured on, as the document states them
 * @param columns the table's header
 * @param rows the table's rows, each as long as {@code columns}
 */
public record Reference(
    String source, String setup, List<String> columns, List<List<Object>> rows) {

  public Reference {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("source", source);
    json.put("setup", setup);
    json.put("columns", columns);
    json.put("rows", rows);
    return json;
  }
}
