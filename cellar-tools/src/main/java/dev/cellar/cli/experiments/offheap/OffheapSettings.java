package dev.cellar.cli.experiments.offheap;

import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.showdown.Deploy;
import dev.cellar.cli.experiments.showdown.DeploySizing;
import dev.cellar.cli.experiments.showdown.Phase;
import dev.cellar.cli.experiments.showdown.ReadWorkload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of the off-heap experiment: the memory allotted to each deploy's process, PE's rows and
 * the YCSB records (together sized to fit in either deploy's cache, as the seed had every block
 * cached), the thread counts, each run's length and runs per phase, and the host the deploys'
 * servers listen on ({@code serveHost}; null runs each deploy embedded in a JVM of its own).
 * Immutable.
 */
public record OffheapSettings(
    Allotment allotment,
    long rows,
    long ycsbRecords,
    List<Integer> threads,
    long runMillis,
    int runs,
    Path tmpfs,
    long seed,
    String serveHost) {

  /**
   * The least memory allotted to a deploy: PE's table, a quarter of it, then holds the 10,000 rows
   * a range scan reads.
   */
  static final long MIN_MEMORY = 40L << 20;

  /** The on-heap read path (the L1 holds every block) and the off-heap one (the L2 does). */
  static final List<Deploy> DEPLOYS = List.of(Deploy.LRU, Deploy.BUCKET_OFFHEAP);

  /** Blocks wait this long for the L2's write queue, so warming caches every block. */
  static final Map<String, String> WARM_EVERY_BLOCK =
      Map.of("hbase.bucketcache.queue.addition.waittime", "1000");

  public OffheapSettings {
    threads = List.copyOf(threads);
    if (threads.isEmpty() || threads.stream().anyMatch(t -> t < 1)) {
      throw new IllegalArgumentException(
          "--threads must be numbers of at least 1, were " + threads);
    }
    if (rows < ReadWorkload.SCAN_ROWS) {
      throw new IllegalArgumentException(
          "the table needs at least "
              + ReadWorkload.SCAN_ROWS
              + " rows for its range scans, would have "
              + rows);
    }
    if (ycsbRecords < 100) {
      throw new IllegalArgumentException(
          "the YCSB table needs at least 100 records, would have " + ycsbRecords);
    }
    if (runs < 1 || runMillis < 100) {
      throw new IllegalArgumentException(
          "runs must be at least 1 and a run at least 100 ms: "
              + runs
              + " runs of "
              + runMillis
              + " ms");
    }
  }

  /** The bytes allotted to each deploy's process. */
  public long memory() {
    return allotment.bytes();
  }

  /** Why this is a smoke run (a reduced scale, sizes raised to their floors), or none. */
  List<String> smokeReasons() {
    List<String> reasons = new ArrayList<>(allotment.smokeReasons());
    reasons.addAll(DeploySizing.floors(DEPLOYS, memory()));
    return reasons;
  }

  /** Every workload at every thread count, thread counts ascending within a workload. */
  List<Phase> phases() {
    List<Phase> phases = new ArrayList<>();
    for (ReadWorkload workload : ReadWorkload.values()) {
      for (int t : threads) {
        phases.add(new Phase(workload, t));
      }
    }
    return phases;
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>(allotment.toJson());
    json.put("rows", rows);
    json.put("ycsbRecords", ycsbRecords);
    json.put("ycsbRecord", "10 fields of 100 bytes; workloads C (reads) and E (scans only)");
    json.put("valueSize", 1000);
    json.put("threads", threads);
    json.put("runMillis", runMillis);
    json.put("runs", runs);
    json.put("scanRows", ReadWorkload.SCAN_ROWS);
    json.put("multiGetRows", 100);
    json.put("seed", seed);
    json.put(
        "through",
        serveHost == null
            ? "embedded, a JVM per deploy"
            : "a cellar serve per deploy on " + serveHost + ", clients in one JVM");
    for (Deploy deploy : DEPLOYS) {
      long memory = memory();
      Map<String, Object> sizes = new LinkedHashMap<>();
      sizes.put("heapBytes", deploy.heapBytes(memory));
      sizes.put("maxDirectBytes", deploy.directBytes(memory));
      sizes.put("l1Bytes", deploy.l1Bytes(memory));
      sizes.put("l2Bytes", deploy.l2Bytes(memory));
      Map<String, String> settings = new LinkedHashMap<>(deploy.config(memory, tmpfs));
      settings.putAll(WARM_EVERY_BLOCK);
      sizes.put("settings", settings);
      json.put(deploy.name(), sizes);
    }
    return json;
  }
}
