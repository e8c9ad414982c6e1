package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.experiments.Allotment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One showdown run: the memory allotted to each deploy's process, the database:RAM ratios, the
 * deploys, PE's clients and sample rate, each measured run's length and how many runs (the last is
 * kept), where the file engine's tmpfs is, and the host the deploys' servers listen on ({@code
 * serveHost}; null runs each deploy embedded in a JVM of its own). Immutable.
 */
public record ShowdownSettings(
    Allotment allotment,
    List<Double> ratios,
    List<Deploy> deploys,
    int clients,
    double sampleRate,
    long runMillis,
    int runs,
    Path tmpfs,
    long seed,
    String serveHost) {

  /** The least memory allotted to a deploy: below it, the sizes would be all floors. */
  public static final long MIN_MEMORY = 16L << 20;

  /** PE's row: a 26-byte key and a 1000-byte value, "just over 1K" as the seed counts it. */
  static final int ROW_BYTES = 26 + PeTableLoader.VALUE_SIZE + 6;

  public ShowdownSettings {
    ratios = List.copyOf(ratios);
    deploys = List.copyOf(deploys);
    if (allotment.bytes() < MIN_MEMORY) {
      throw new IllegalArgumentException(
          "the memory allotted to each deploy must be at least"
              + " 16m, was "
              + allotment.describe());
    }
    if (ratios.isEmpty() || ratios.stream().anyMatch(r -> !(r > 0))) {
      throw new IllegalArgumentException("--ratios must be numbers above 0, were " + ratios);
    }
    if (deploys.isEmpty()) {
      throw new IllegalArgumentException("give at least one deploy");
    }
    if (clients < 1 || runs < 1 || runMillis < 100) {
      throw new IllegalArgumentException(
          "clients and runs must be at least 1 and a run at least"
              + " 100 ms: "
              + clients
              + " clients, "
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
    reasons.addAll(DeploySizing.floors(deploys, memory()));
    return reasons;
  }

  /** Rows of a database {@code ratio} times the memory allotment. */
  long rows(double ratio) {
    return Math.max(100, Math.round(ratio * memory() / ROW_BYTES));
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>(allotment.toJson());
    json.put("ratios", ratios);
    json.put("deploys", deploys.stream().map(Deploy::title).toList());
    json.put("clients", clients);
    json.put("sampleRate", sampleRate);
    json.put("runMillis", runMillis);
    json.put("runs", runs);
    json.put("valueSize", PeTableLoader.VALUE_SIZE);
    json.put("tmpfs", tmpfs.toString());
    json.put("seed", seed);
    json.put(
        "through",
        serveHost == null
            ? "embedded, a JVM per deploy"
            : "a cellar serve per deploy on " + serveHost + ", clients in one JVM");
    for (Deploy deploy : deploys) {
      long memory = memory();
      Map<String, Object> sizes = new LinkedHashMap<>();
      sizes.put("heapBytes", deploy.heapBytes(memory));
      sizes.put("maxDirectBytes", deploy.directBytes(memory));
      sizes.put("l1Bytes", deploy.l1Bytes(memory));
      sizes.put("l2Bytes", deploy.l2Bytes(memory));
      sizes.put("settings", deploy.config(memory, tmpfs));
      json.put(deploy.name(), sizes);
    }
    return json;
  }
}
