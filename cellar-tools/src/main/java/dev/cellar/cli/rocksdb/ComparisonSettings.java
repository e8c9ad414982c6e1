package dev.cellar.cli.rocksdb;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.cli.pe.PeData;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code cellar bench rocksdb} runs. Immutable; the constructor rejects bad values, naming the
 * option.
 *
 * @param workloads what to measure: gets and scans (per cache ratio), batched writes
 * @param shape the rows' key length, columns and value size
 * @param operations operations in all per measured phase (split over the threads): gets, scans, or
 *     batches for the write workload; or 0 to run for {@code seconds}
 * @param cacheRatios for each scenario, the block cache size as a multiple of the data size
 * @param warmupOperations per side before each measured phase, in all: gets, or rows (in batches)
 *     for the write workload; for scans, any value above 0 reads the table once
 * @param directory where both stores live, or null for a temporary directory
 * @param config Cellar's configuration before the cache settings
 * @param batchRows rows per batch of the write workload
 * @param scanRows rows per scan, or 0 for scans of each thread's share of the table
 * @param cacheBlocks whether scans put the blocks they read into the block cache
 * @param rounds the rounds each measured get or scan phase is cut into, the stores taking turns
 *     round by round so that a machine's changing load falls on both alike
 */
record ComparisonSettings(
    Set<Workload> workloads,
    RowShape shape,
    long rows,
    int threads,
    long operations,
    int seconds,
    List<Double> cacheRatios,
    long warmupOperations,
    CellarSide.CacheTier cacheTier,
    Path directory,
    CellarConfig config,
    long seed,
    int verifyRows,
    int progressSeconds,
    int batchRows,
    long scanRows,
    boolean cacheBlocks,
    int rounds,
    Map<String, String> familyAttributes) {

  /** The least cache the L2 tier works with: a small L1 plus a bucket per default bucket size. */
  static final long MIN_L2_CACHE = 40L << 20;

  ComparisonSettings {
    require(!workloads.isEmpty(), "--workload needs get, scan or write");
    workloads = Collections.unmodifiableSet(EnumSet.copyOf(workloads));
    cacheRatios = List.copyOf(cacheRatios);
    familyAttributes = Collections.unmodifiableMap(new LinkedHashMap<>(familyAttributes));
    // throws IllegalArgumentException naming an unknown attribute or a bad value
    ColumnFamilyDescriptor.of(PeData.familyName(0), familyAttributes);
    require(batchRows >= 1, "--batch must be at least 1, was " + batchRows);
    require(rows >= 1, "--rows must be at least 1, was " + rows);
    require(shape.valueSize() >= 1, "--value-size must be at least 1, was " + shape.valueSize());
    require(
        shape.columns() >= 1 && shape.columns() <= 100,
        "--columns must be between 1 and 100, was " + shape.columns());
    require(
        shape.keyLength() >= RowShape.MIN_KEY_LENGTH && shape.keyLength() <= 64,
        "--key-length must be between "
            + RowShape.MIN_KEY_LENGTH
            + " and 64, was "
            + shape.keyLength());
    require(threads >= 1, "--threads must be at least 1, was " + threads);
    require(operations >= 0, "--ops must be 0 or more, was " + operations);
    require(operations > 0 || seconds >= 1, "give --ops or --seconds of at least 1");
    require(operations == 0 || operations >= threads, "--ops must be at least --threads");
    require(
        !cacheRatios.isEmpty() && cacheRatios.stream().allMatch(r -> r > 0 && r <= 100),
        "--cache-ratio needs ratios in (0, 100], was " + cacheRatios);
    require(warmupOperations >= 0, "--warmup must be 0 or more, was " + warmupOperations);
    require(verifyRows >= 0, "--verify must be 0 or more, was " + verifyRows);
    require(scanRows >= 0, "--scan-rows must be 0 or more, was " + scanRows);
    require(rounds >= 1, "--rounds must be at least 1, was " + rounds);
    require(
        operations == 0 || operations >= (long) threads * rounds,
        "--ops must be at least --threads x --rounds");
    for (double ratio : cacheRatios) {
      long bytes = (long) (ratio * rows * shape.rowBytes());
      require(
          cacheTier == CellarSide.CacheTier.L1 || bytes >= MIN_L2_CACHE,
          "--cache-tier L2 needs a cache of at least "
              + (MIN_L2_CACHE >> 20)
              + " MiB (the bucket"
              + " cache takes a 2 MiB bucket per size class); --cache-ratio "
              + ratio
              + " gives "
              + (bytes >> 20)
              + " MiB");
    }
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** The logical data: keys plus values. */
  long dataBytes() {
    return rows * shape.rowBytes();
  }
}
