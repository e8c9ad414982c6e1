package dev.cellar.cli.pe;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One measured PE phase: the options it ran with, what {@link LoadRunner} measured, the block cache
 * lookups during the phase, the allocator's heap allocation ratio over the phase, and for a write
 * phase the time of the flush that followed it (-1 otherwise). A run against a server ({@code
 * server}: its address; null embedded) has no cache or allocator figures of its own.
 */
public record PeResult(
    PeOptions options,
    RunMeasurement measurement,
    CacheFigures cache,
    double heapAllocationRatio,
    long flushMillis,
    String server) {

  /** Percentiles every report gives. */
  static final double[] PERCENTILES = {50, 75, 95, 99, 99.9, 99.99};

  public PeWorkload workload() {
    return options.workload();
  }

  /** Gets that found no row: operations minus rows found, for gets without --filterAll. */
  public long missingRows() {
    boolean gets = workload() == PeWorkload.RANDOM_READ || workload() == PeWorkload.SEQUENTIAL_READ;
    return gets && !options.filterAll()
        ? Math.max(0, measurement.operations() - measurement.rows())
        : 0;
  }

  /** The result as JSON-ready maps and lists. */
  public Map<String, Object> toJson() {
    RunMeasurement m = measurement;
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("command", workload().command());
    json.put("threads", m.threads());
    json.put("rowsPerThread", options.rowsPerThread());
    json.put("totalRows", options.totalRows());
    json.put("valueSize", options.valueSize());
    json.put("operations", m.operations());
    json.put("rows", m.rows());
    json.put("missingRows", missingRows());
    json.put("seconds", m.seconds());
    json.put("opsPerSecond", m.opsPerSecond());
    json.put(
        "perThread",
        m.perThread().stream()
            .map(
                t ->
                    Map.of(
                        "operations",
                        t.operations(),
                        "seconds",
                        t.elapsedNanos() / 1e9,
                        "opsPerSecond",
                        t.opsPerSecond()))
            .toList());
    Map<String, Object> latency = new LinkedHashMap<>();
    latency.put("timedOperations", m.latency().getTotalCount());
    latency.put("meanMicros", m.latency().getMean() / 1e3);
    for (double p : PERCENTILES) {
      latency.put("p" + label(p) + "Micros", m.latencyMicros(p));
    }
    latency.put("maxMicros", m.maxLatencyMicros());
    json.put("latency", latency);
    json.put("heapBytesPerOperation", m.allocatedBytesPerOperation());
    json.put(
        "gc",
        Map.of(
            "collections",
            m.gc().totalCount(),
            "millis",
            m.gc().totalMillis(),
            "byCollector",
            new TreeMap<>(m.gc().counts())));
    json.put(
        "blockCache",
        cache.tiers().stream()
            .map(
                t -> {
                  Map<String, Object> tier = new LinkedHashMap<>();
                  tier.put("tier", t.name());
                  tier.put("hits", t.hits());
                  tier.put("misses", t.misses());
                  tier.put("hitRatio", t.hitRatio());
                  tier.put("blocks", t.blocks());
                  tier.put("bytes", t.bytes());
                  return tier;
                })
            .toList());
    if (server != null) {
      json.put("server", server);
    } else {
      json.put("allocatorHeapAllocationRatio", heapAllocationRatio);
    }
    if (flushMillis >= 0) {
      json.put("flushMillis", flushMillis);
    }
    return json;
  }

  /** "99.9" for 99.9, "50" for 50. */
  static String label(double percentile) {
    return percentile == Math.rint(percentile)
        ? Long.toString((long) percentile)
        : Double.toString(percentile);
  }

  static List<Map<String, Object>> toJson(List<PeResult> results) {
    return results.stream().map(PeResult::toJson).toList();
  }
}
