package dev.cellar.cli.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory allotted to each deploy's process in the JVM-per-deploy experiments (showdown,
 * offheap): {@code --memory}, or its default ({@link MemorySize}), times {@code --scale}, and never
 * below the least the experiment runs with. A {@code --memory} given below that least is refused,
 * naming it; an allotment that only the scale brought below it (a smoke run such as {@code --scale
 * 0.01}) is raised to it, and {@link #raised()} says so for the report. Immutable.
 *
 * @param bytes what each deploy is allotted
 * @param memoryBytes {@code --memory}, or its default
 * @param memoryGiven whether {@code --memory} was given
 * @param scale {@code --scale}
 * @param minimum the least the experiment runs with
 */
public record Allotment(
    long bytes, long memoryBytes, boolean memoryGiven, double scale, long minimum) {

  private static final long MIB = 1L << 20;

  /**
   * The allotment of {@code --memory} (null when not given) at {@code scale}.
   *
   * @param why what needs the minimum, for the message refusing a smaller {@code --memory}
   * @throws IllegalArgumentException naming {@code --memory} when it is not a size or is below
   *     {@code minimum}
   */
  public static Allotment of(String memory, double scale, long minimum, String why) {
    long memoryBytes = MemorySize.parseOrDefault(memory);
    if (memory != null && memoryBytes < minimum) {
      throw new IllegalArgumentException(
          "--memory must be at least " + (minimum >> 20) + "m (" + why + "), was " + memory);
    }
    long scaled = Math.round(memoryBytes * scale);
    return new Allotment(Math.max(scaled, minimum), memoryBytes, memory != null, scale, minimum);
  }

  /** True when the scaled allotment was below the minimum and raised to it. */
  public boolean raised() {
    return bytes > Math.round(memoryBytes * scale);
  }

  /** How the allotment was reached, e.g. "64 MiB (--memory default 1,280 MiB x --scale 0.05)". */
  public String describe() {
    String memory = (memoryGiven ? "--memory " : "--memory default ") + mib(memoryBytes);
    String product = scale == 1 ? memory : memory + " x --scale " + scale;
    if (raised()) {
      return mib(bytes)
          + " ("
          + product
          + " is "
          + mib(Math.round(memoryBytes * scale))
          + ", raised to the least this experiment runs with)";
    }
    return mib(bytes) + " (" + product + ")";
  }

  /** Why a run with this allotment is a smoke run: a scale below 1, the minimum; or none. */
  public List<String> smokeReasons() {
    List<String> reasons = new ArrayList<>();
    if (scale < 1) {
      reasons.add(ExperimentOptions.reducedReason(scale));
    }
    if (raised()) {
      reasons.add("the memory allotted to each deploy, " + describe());
    }
    return reasons;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("memoryBytes", bytes);
    json.put("memoryOption", memoryGiven ? "given" : "default");
    json.put("memoryOptionBytes", memoryBytes);
    json.put("scale", scale);
    json.put("minimumBytes", minimum);
    json.put("raisedToMinimum", raised());
    return json;
  }

  /** {@code bytes} in MiB with one decimal where it has one, e.g. "12.8 MiB" or "64 MiB". */
  public static String mib(long bytes) {
    double mib = (double) bytes / MIB;
    return mib == Math.rint(mib)
        ? String.format("%,d MiB", (long) mib)
        : String.format("%,.1f MiB", mib);
  }
}
