package dev.cellar.cli.experiments.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a run was set up, as a table beside its results: what each deploy was given (heap, caches,
 * direct memory) and how those figures were reached, so that a figure depending on them can be
 * read.
 *
 * @param title the table's heading
 * @param text what the table shows and how its figures were reached
 * @param columns the table's header
 * @param rows the table's rows, each as long as {@code columns}; numbers, strings or null
 */
public record SetupTable(String title, String text, List<String> columns, List<List<Object>> rows) {

  public SetupTable {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
    for (List<Object> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException(
            "setup table "
                + title
                + ": a row has "
                + row.size()
                + " values for "
                + columns.size()
                + " columns: "
                + row);
      }
    }
  }

  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("title", title);
    json.put("text", text);
    json.put("columns", columns);
    json.put("rows", rows);
    return json;
  }
}
