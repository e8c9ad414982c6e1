package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.RunMeasurement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One store's measured phase in one cache scenario.
 *
 * @param cache the store's block cache lookups during the phase, as one line
 * @param wrongValues gets whose value was missing or of the wrong size
 * @param roundOpsPerSecond the gets per second of each round
 */
record ScenarioResult(
    String store,
    RunMeasurement measurement,
    String cache,
    long wrongValues,
    List<Double> roundOpsPerSecond) {

  ScenarioResult {
    roundOpsPerSecond = List.copyOf(roundOpsPerSecond);
  }

  double p50Micros() {
    return measurement.latencyMicros(50);
  }

  double p99Micros() {
    return measurement.latencyMicros(99);
  }

  Map<String, Object> toJson() {
    RunMeasurement m = measurement;
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("store", store);
    json.put("operations", m.operations());
    json.put("seconds", m.seconds());
    json.put("opsPerSecond", m.opsPerSecond());
    json.put("p50Micros", p50Micros());
    json.put("p99Micros", p99Micros());
    json.put("p999Micros", m.latencyMicros(99.9));
    json.put("maxMicros", m.maxLatencyMicros());
    json.put("heapBytesPerGet", m.allocatedBytesPerOperation());
    json.put("gcCollections", m.gc().totalCount());
    json.put("gcMillis", m.gc().totalMillis());
    json.put("cache", cache);
    json.put("wrongValues", wrongValues);
    json.put("roundOpsPerSecond", roundOpsPerSecond);
    return json;
  }
}
