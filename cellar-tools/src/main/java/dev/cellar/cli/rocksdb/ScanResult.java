package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.RunMeasurement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One store's measured scan phase in one cache scenario: operations are scans, so throughput and
 * heap are per row (and per byte of keys and values), latencies per scan.
 *
 * @param rowBytes the key and value bytes of one row
 * @param cache the store's block cache lookups during the phase, as one line
 * @param wrongRows rows missing, extra or of the wrong shape
 * @param roundRowsPerSecond the rows per second of each round
 */
record ScanResult(
    String store,
    RunMeasurement measurement,
    long rowBytes,
    String cache,
    long wrongRows,
    List<Double> roundRowsPerSecond) {

  ScanResult {
    roundRowsPerSecond = List.copyOf(roundRowsPerSecond);
  }

  double rowsPerSecond() {
    return measurement.seconds() == 0 ? 0 : measurement.rows() / measurement.seconds();
  }

  /** Key and value bytes read per second, in MB (10^6 bytes). */
  double megabytesPerSecond() {
    return rowsPerSecond() * rowBytes / 1e6;
  }

  double heapBytesPerRow() {
    return measurement.rows() == 0 ? 0 : (double) measurement.allocatedBytes() / measurement.rows();
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
    json.put("scans", m.operations());
    json.put("rows", m.rows());
    json.put("seconds", m.seconds());
    json.put("rowsPerSecond", rowsPerSecond());
    json.put("megabytesPerSecond", megabytesPerSecond());
    json.put("scanP50Micros", p50Micros());
    json.put("scanP99Micros", p99Micros());
    json.put("heapBytesPerRow", heapBytesPerRow());
    json.put("gcCollections", m.gc().totalCount());
    json.put("gcMillis", m.gc().totalMillis());
    json.put("cache", cache);
    json.put("wrongRows", wrongRows);
    json.put("roundRowsPerSecond", roundRowsPerSecond);
    return json;
  }
}
