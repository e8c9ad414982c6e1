package dev.cellar.observe;

/**
 * One figure of a {@link MetricSource}: its name (the JMX attribute), what it means, whether it
 * only grows ({@link Kind#COUNTER}), can go both ways ({@link Kind#GAUGE}) or is text ({@link
 * Kind#TEXT}, left out of Prometheus), and its value: a {@link Long}, a {@link Double} or a {@link
 * String}.
 */
public record Metric(String name, String description, Kind kind, Object value) {

  /** How a figure behaves over time; Prometheus's TYPE for the numeric ones. */
  public enum Kind {
    COUNTER,
    GAUGE,
    TEXT
  }

  public static Metric counter(String name, String description, long value) {
    return new Metric(name, description, Kind.COUNTER, value);
  }

  public static Metric gauge(String name, String description, long value) {
    return new Metric(name, description, Kind.GAUGE, value);
  }

  public static Metric gauge(String name, String description, double value) {
    return new Metric(name, description, Kind.GAUGE, value);
  }

  public static Metric text(String name, String description, String value) {
    return new Metric(name, description, Kind.TEXT, value == null ? "" : value);
  }

  /** The value as a number; 0 for text. */
  public double number() {
    return value instanceof Number number ? number.doubleValue() : 0;
  }
}
