package dev.cellar.config;

import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable set of configuration properties (HBase-style {@code key=value} strings) with typed
 * getters that reject malformed values with an {@link InvalidConfigException} naming the key.
 *
 * <p>Thread-safe: immutable.
 */
public final class Settings {

  private static final Settings EMPTY = new Settings(Map.of());

  private final Map<String, String> values;

  private Settings(Map<String, String> values) {
    this.values = values;
  }

  /** Settings with no properties: every getter returns its default. */
  public static Settings empty() {
    return EMPTY;
  }

  /** Settings holding a copy of {@code values}. */
  public static Settings of(Map<String, String> values) {
    return new Settings(Map.copyOf(values));
  }

  /** Returns these settings with {@code key} set to {@code value}. */
  public Settings with(String key, String value) {
    Map<String, String> copy = new TreeMap<>(values);
    copy.put(key, value);
    return new Settings(Map.copyOf(copy));
  }

  /** Every property set, unmodifiable: what a file-system client configures itself from. */
  public Map<String, String> asMap() {
    return values;
  }

  /** The raw value of {@code key}, or {@code null} if it is not set. */
  public String get(String key) {
    return values.get(key);
  }

  public String getString(String key, String defaultValue) {
    String value = values.get(key);
    return value == null ? defaultValue : value.trim();
  }

  public boolean getBoolean(String key, boolean defaultValue) {
    String value = values.get(key);
    if (value == null) {
      return defaultValue;
    }
    return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new InvalidConfigException(key, value, "expected true or false");
    };
  }

  public int getInt(String key, int defaultValue) {
    String value = values.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, value, "expected a 32-bit integer");
    }
  }

  public long getLong(String key, long defaultValue) {
    String value = values.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, value, "expected a 64-bit integer");
    }
  }

  public double getDouble(String key, double defaultValue) {
    String value = values.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      double parsed = Double.parseDouble(value.trim());
      if (!Double.isFinite(parsed)) {
        throw new InvalidConfigException(key, value, "expected a finite number");
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, value, "expected a number");
    }
  }

  /**
   * A size in bytes, as a plain number or with a binary suffix as Hadoop's {@code getLongBytes}
   * reads it: {@code k}, {@code m}, {@code g}, {@code t}, {@code p} or {@code e}
   * (case-insensitive), so {@code "10g"} is 10 × 2<sup>30</sup>.
   */
  public long getBytes(String key, long defaultValue) {
    String value = values.get(key);
    if (value == null) {
      return defaultValue;
    }
    String trimmed = value.trim();
    int shift =
        trimmed.isEmpty()
            ? -1
            : "kmgtpe".indexOf(Character.toLowerCase(trimmed.charAt(trimmed.length() - 1)));
    String number = shift < 0 ? trimmed : trimmed.substring(0, trimmed.length() - 1).trim();
    int bits = shift < 0 ? 0 : 10 * (shift + 1);
    try {
      long parsed = Long.parseLong(number);
      if (bits > 0 && (parsed > Long.MAX_VALUE >> bits || parsed < Long.MIN_VALUE >> bits)) {
        throw new InvalidConfigException(key, value, "overflows a 64-bit byte count");
      }
      return parsed << bits;
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(
          key, value, "expected a byte count, optionally with a suffix k, m, g, t, p or e");
    }
  }

  @Override
  public String toString() {
    return "Settings" + new TreeMap<>(values);
  }
}
