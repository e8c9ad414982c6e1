package dev.cellar.cli.experiments.report;

import java.util.List;

/**
 * RFC 4180 CSV text: a header line and one line per row, fields quoted when they hold a comma, a
 * quote or a line break; numbers as Java prints them, null and non-finite numbers as an empty
 * field.
 */
final class Csv {

  private Csv() {}

  static String write(List<String> columns, List<List<Object>> rows) {
    StringBuilder out = new StringBuilder();
    line(List.copyOf(columns), out);
    for (List<Object> row : rows) {
      line(row, out);
    }
    return out.toString();
  }

  private static void line(List<?> fields, StringBuilder out) {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(field(fields.get(i)));
    }
    out.append("\r\n");
  }

  private static String field(Object value) {
    if (value == null || value instanceof Double d && !Double.isFinite(d)) {
      return "";
    }
    String text = value.toString();
    if (text.indexOf(',') < 0
        && text.indexOf('"') < 0
        && text.indexOf('\n') < 0
        && text.indexOf('\r') < 0) {
      return text;
    }
    return '"' + text.replace("\"", "\"\"") + '"';
  }
}
