package dev.cellar.cli.experiments;

import dev.cellar.cli.experiments.report.Machine;
import java.util.Locale;

/**
 * The memory allotted to each deploy's process in the JVM-per-deploy experiments: a size such as
 * {@code 1g} or {@code 768m}, or by default a sixteenth of this machine's memory (the showdown's
 * seed gave 8G of its 64G, with the machine to itself), rounded down to 256 MiB, at least 512 MiB.
 */
public final class MemorySize {

  private static final long STEP = 256L << 20;

  private MemorySize() {}

  /**
   * The bytes {@code text} says, or the default when it is null.
   *
   * @throws IllegalArgumentException naming {@code --memory} when it is not a size
   */
  public static long parseOrDefault(String text) {
    if (text == null) {
      long machine = Machine.current().memoryBytes();
      return Math.max(2 * STEP, machine > 0 ? machine / 16 / STEP * STEP : 0);
    }
    String size = text.trim().toLowerCase(Locale.ROOT);
    long unit =
        switch (size.isEmpty() ? ' ' : size.charAt(size.length() - 1)) {
          case 'k' -> 1L << 10;
          case 'm' -> 1L << 20;
          case 'g' -> 1L << 30;
          default -> 1;
        };
    String digits = unit == 1 ? size : size.substring(0, size.length() - 1);
    try {
      return Math.multiplyExact(Long.parseLong(digits), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("--memory must be a size such as 1g or 768m, was " + text);
    }
  }
}
