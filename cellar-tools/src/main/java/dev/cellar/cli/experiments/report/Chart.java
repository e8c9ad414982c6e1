package dev.cellar.cli.experiments.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One bar chart of a report: a value per category for each series, bars of one category side by
 * side. A missing value (a seed that published no figure for that category) is null and draws no
 * bar.
 *
 * @param id a name unique in its report, used for the chart's element and screenshot
 * @param categories the x axis, in order
 * @param series each series' values, one per category
 */
public record Chart(
    String id, String title, String unit, List<String> categories, List<Series> series) {

  /** One series: a name and a value (or null) per category. */
  public record Series(String name, List<Double> values) {

    public Series {
      values = Collections.unmodifiableList(new ArrayList<>(values));
    }
  }

  public Chart {
    categories = List.copyOf(categories);
    series = List.copyOf(series);
    for (Series s : series) {
      if (s.values().size() != categories.size()) {
        throw new IllegalArgumentException(
            "chart "
                + id
                + ": series "
                + s.name()
                + " has "
                + s.values().size()
                + " values for "
                + categories.size()
                + " categories");
      }
    }
  }

  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("id", id);
    json.put("title", title);
    json.put("unit", unit);
    json.put("categories", categories);
    json.put(
        "series",
        series.stream()
            .map(
                s -> {
                  Map<String, Object> one = new LinkedHashMap<>();
                  one.put("name", s.name());
                  one.put("values", s.values());
                  return one;
                })
            .toList());
    return json;
  }
}
