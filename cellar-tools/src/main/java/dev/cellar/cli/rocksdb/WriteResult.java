package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.RunMeasurement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One store's measured write phase: operations are batches, so throughput and heap are per row and
 * latencies per batch.
 *
 * @param wrongValues rows checked after the phase whose value was missing or wrong
 */
record WriteResult(String store, RunMeasurement measurement, long wrongValues) {

  double rowsPerSecond() {
    return measurement.seconds() == 0 ? 0 : measurement.rows() / measurement.seconds();
  }

  double p50Micros() {
    return measurement.latencyMicros(50);
  }

  double p99Micros() {
    return measurement.latencyMicros(99);
  }

  double heapBytesPerRow() {
    return measurement.rows() == 0 ? 0 : (double) measurement.allocatedBytes() / measurement.rows();
  }

  Map<String, Object> toJson() {
    RunMeasurement m = measurement;
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("store", store);
    json.put("batches", m.operations());
    json.put("rows", m.rows());
    json.put("seconds", m.seconds());
    json.put("rowsPerSecond", rowsPerSecond());
    json.put("batchP50Micros", p50Micros());
    json.put("batchP99Micros", p99Micros());
    json.put("batchP999Micros", m.latencyMicros(99.9));
    json.put("batchMaxMicros", m.maxLatencyMicros());
    json.put("heapBytesPerRow", heapBytesPerRow());
    json.put("gcCollections", m.gc().totalCount());
    json.put("gcMillis", m.gc().totalMillis());
    json.put("wrongValues", wrongValues);
    return json;
  }
}
