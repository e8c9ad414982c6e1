package dev.cellar.observe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parser of Prometheus's text exposition format 0.0.4, written from its specification for the
 * tests (no Java library reads the format): comment lines ({@code # HELP name text}, {@code # TYPE
 * name type}, other comments), and samples {@code name{label="value",...} value [timestamp]} with
 * the format's escapes. It rejects what a Prometheus server would: a bad metric or label name, an
 * unterminated or badly escaped label value, a value that is not a float, a second TYPE for a
 * family, a TYPE after the family's samples, an unknown type.
 */
public final class PrometheusTextParser {

  /** One sample line. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  /** What a text holds: the families' types and the samples in order. */
  public record Exposition(Map<String, String> types, List<Sample> samples) {

    /** The samples of {@code name}. */
    public List<Sample> samples(String name) {
      return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /** The one sample of {@code name}. */
    public double value(String name) {
      List<Sample> found = samples(name);
      if (found.size() != 1) {
        throw new AssertionError(found.size() + " samples of " + name);
      }
      return found.getFirst().value();
    }
  }

  private PrometheusTextParser() {}

  public static Exposition parse(String text) {
    Map<String, String> types = new LinkedHashMap<>();
    List<Sample> samples = new ArrayList<>();
    int number = 0;
    for (String line : text.split("\n", -1)) {
      number++;
      if (line.isBlank()) {
        continue;
      }
      try {
        if (line.startsWith("#")) {
          comment(line, types, samples);
        } else {
          samples.add(sample(line));
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "line " + number + " '" + line + "': " + e.getMessage(), e);
      }
    }
    return new Exposition(types, samples);
  }

  private static void comment(String line, Map<String, String> types, List<Sample> samples) {
    String[] words = line.substring(1).trim().split(" ", 3);
    if (words.length >= 2 && words[0].equals("TYPE")) {
      String name = words[1];
      checkMetricName(name);
      String type = words.length == 3 ? words[2].trim() : "";
      if (!List.of("counter", "gauge", "histogram", "summary", "untyped").contains(type)) {
        throw new IllegalArgumentException("unknown type '" + type + "'");
      }
      if (types.containsKey(name)) {
        throw new IllegalArgumentException("second TYPE for " + name);
      }
      if (samples.stream().anyMatch(s -> s.name().equals(name))) {
        throw new IllegalArgumentException("TYPE after samples of " + name);
      }
      types.put(name, type);
    } else if (words.length >= 2 && words[0].equals("HELP")) {
      checkMetricName(words[1]);
    }
  }

  private static Sample sample(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
      i++;
    }
    String name = line.substring(0, i);
    checkMetricName(name);
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i++;
      while (line.charAt(i) != '}') {
        int equals = line.indexOf('=', i);
        if (equals < 0) {
          throw new IllegalArgumentException("label without '='");
        }
        String label = line.substring(i, equals).trim();
        checkLabelName(label);
        if (line.charAt(equals + 1) != '"') {
          throw new IllegalArgumentException("label value of " + label + " is not quoted");
        }
        StringBuilder value = new StringBuilder();
        int j = equals + 2;
        while (true) {
          if (j >= line.length()) {
            throw new IllegalArgumentException("unterminated value of " + label);
          }
          char c = line.charAt(j);
          if (c == '"') {
            break;
          }
          if (c == '\\') {
            char escaped = line.charAt(++j);
            switch (escaped) {
              case '\\' -> value.append('\\');
              case '"' -> value.append('"');
              case 'n' -> value.append('\n');
              default -> throw new IllegalArgumentException("bad escape \\" + escaped);
            }
          } else {
            value.append(c);
          }
          j++;
        }
        if (labels.put(label, value.toString()) != null) {
          throw new IllegalArgumentException("label " + label + " twice");
        }
        i = j + 1;
        if (line.charAt(i) == ',') {
          i++;
        } else if (line.charAt(i) != '}') {
          throw new IllegalArgumentException("expected ',' or '}' at " + i);
        }
      }
      i++;
    }
    String[] rest = line.substring(i).trim().split(" +");
    if (rest.length < 1 || rest.length > 2 || rest[0].isEmpty()) {
      throw new IllegalArgumentException("expected a value and an optional timestamp");
    }
    double value =
        switch (rest[0]) {
          case "NaN" -> Double.NaN;
          case "+Inf" -> Double.POSITIVE_INFINITY;
          case "-Inf" -> Double.NEGATIVE_INFINITY;
          default -> Double.parseDouble(rest[0]);
        };
    if (rest.length == 2) {
      Long.parseLong(rest[1]);
    }
    return new Sample(name, labels, value);
  }

  private static void checkMetricName(String name) {
    if (name.isEmpty() || !isNameStart(name.charAt(0), true)) {
      throw new IllegalArgumentException("bad metric name '" + name + "'");
    }
    for (int i = 1; i < name.length(); i++) {
      if (!isNameStart(name.charAt(i), true) && !Character.isDigit(name.charAt(i))) {
        throw new IllegalArgumentException("bad metric name '" + name + "'");
      }
    }
  }

  private static void checkLabelName(String name) {
    if (name.isEmpty() || !isNameStart(name.charAt(0), false)) {
      throw new IllegalArgumentException("bad label name '" + name + "'");
    }
    for (int i = 1; i < name.length(); i++) {
      if (!isNameStart(name.charAt(i), false) && !Character.isDigit(name.charAt(i))) {
        throw new IllegalArgumentException("bad label name '" + name + "'");
      }
    }
  }

  private static boolean isNameStart(char c, boolean colonAllowed) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || (colonAllowed && c == ':');
  }
}
