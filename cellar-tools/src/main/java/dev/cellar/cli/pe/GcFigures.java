package dev.cellar.cli.pe;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Collections and the time they took, per collector ({@link GarbageCollectorMXBean}s): a snapshot
 * at one moment, or the difference of two. The time is what the JVM reports as collection time: the
 * pauses for stop-the-world collectors; for concurrent ones (G1's concurrent cycle, ZGC) it also
 * counts concurrent work.
 */
public record GcFigures(Map<String, Long> counts, Map<String, Long> millis) {

  public GcFigures {
    counts = Map.copyOf(counts);
    millis = Map.copyOf(millis);
  }

  /** Every collector's totals so far. */
  public static GcFigures now() {
    Map<String, Long> counts = new LinkedHashMap<>();
    Map<String, Long> millis = new LinkedHashMap<>();
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      counts.put(bean.getName(), Math.max(0, bean.getCollectionCount()));
      millis.put(bean.getName(), Math.max(0, bean.getCollectionTime()));
    }
    return new GcFigures(counts, millis);
  }

  /** What happened between {@code earlier} and this snapshot. */
  public GcFigures since(GcFigures earlier) {
    Map<String, Long> counts = new LinkedHashMap<>();
    Map<String, Long> millis = new LinkedHashMap<>();
    this.counts.forEach(
        (name, count) -> {
          counts.put(name, count - earlier.counts.getOrDefault(name, 0L));
          millis.put(name, this.millis.get(name) - earlier.millis.getOrDefault(name, 0L));
        });
    return new GcFigures(counts, millis);
  }

  /** The collections of both periods, {@code this} and {@code other}, added up. */
  public GcFigures plus(GcFigures other) {
    Map<String, Long> counts = new LinkedHashMap<>(this.counts);
    Map<String, Long> millis = new LinkedHashMap<>(this.millis);
    other.counts.forEach((name, count) -> counts.merge(name, count, Long::sum));
    other.millis.forEach((name, time) -> millis.merge(name, time, Long::sum));
    return new GcFigures(counts, millis);
  }

  public long totalCount() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  public long totalMillis() {
    return millis.values().stream().mapToLong(Long::longValue).sum();
  }
}
