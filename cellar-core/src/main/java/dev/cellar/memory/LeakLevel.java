package dev.cellar.memory;

import java.util.Locale;

/**
 * How much work the leak detector does, chosen once per JVM by the system property {@value
 * #PROPERTY}.
 */
public enum LeakLevel {
  /** No tracking at all: a leaked pooled buffer is lost to the pool silently. */
  DISABLED,
  /**
   * One pooled allocation in {@value LeakDetector#SAMPLING_INTERVAL} is tracked: if it becomes
   * unreachable without being released, the leak is logged with its allocation site and its memory
   * is returned to the pool.
   */
  SIMPLE,
  /**
   * Every pooled allocation is tracked, with its allocation site and its last accesses (retain,
   * release, touch); outstanding buffers can be listed, which is what the test suite's leak check
   * does after every test.
   */
  PARANOID;

  /** The system property naming the level. */
  public static final String PROPERTY = "cellar.leakDetection.level";

  /** Parses a level name, case-insensitively, with an error naming the property on bad input. */
  public static LeakLevel parse(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid -D" + PROPERTY + "=" + value + ": expected DISABLED, SIMPLE or PARANOID", e);
    }
  }
}
