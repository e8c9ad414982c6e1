package dev.cellar.cli.pe;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one {@code cellar pe} run does, with HBase PerformanceEvaluation's meanings: {@code
 * rowsPerThread} rows for each of {@code threads} threads (so the table's rows are {@link
 * #totalRows()}), the data shape, the column family attributes a new table gets, and the read and
 * write flags. Immutable; the constructor rejects inconsistent values, naming the option.
 *
 * @param familyAttributes HBase's column family attributes ({@code BLOCKSIZE}, {@code BLOOMFILTER},
 *     ...) given for every family of a table the run creates
 * @param sampleRate the fraction of operations whose latency is recorded, in (0, 1]
 * @param progressSeconds seconds between progress lines on stderr, 0 for none
 */
public record PeOptions(
    PeWorkload workload,
    int threads,
    long rowsPerThread,
    int valueSize,
    boolean valueRandom,
    boolean valueZipf,
    int families,
    int columns,
    Map<String, String> familyAttributes,
    boolean cacheBlocks,
    boolean filterAll,
    boolean rowReader,
    boolean writeToWal,
    int multiGet,
    double sampleRate,
    boolean latency,
    String table,
    long seed,
    int progressSeconds,
    int presplitRegions) {

  public PeOptions {
    familyAttributes = Map.copyOf(familyAttributes);
    require(threads >= 1, "<nthreads> must be at least 1, was " + threads);
    require(rowsPerThread >= 1, "--rows must be at least 1, was " + rowsPerThread);
    require(
        Math.multiplyHigh(rowsPerThread, threads) == 0
            && rowsPerThread * threads < 1_000_000_000_000_000L,
        "--rows x <nthreads> is too large: " + rowsPerThread + " x " + threads);
    require(valueSize >= 1, "--valueSize must be at least 1, was " + valueSize);
    require(!(valueRandom && valueZipf), "--valueRandom and --valueZipf cannot be used together");
    require(!valueZipf || valueSize >= 2, "--valueZipf needs --valueSize of at least 2");
    require(families >= 1, "--families must be at least 1, was " + families);
    require(columns >= 1, "--columns must be at least 1, was " + columns);
    require(multiGet >= 0, "--multiGet must be 0 or more, was " + multiGet);
    require(
        multiGet == 0 || workload == PeWorkload.RANDOM_READ,
        "--multiGet applies to randomRead only, not " + workload.command());
    require(sampleRate > 0 && sampleRate <= 1, "--sampleRate must be in (0, 1], was " + sampleRate);
    require(progressSeconds >= 0, "--progress must be 0 or more seconds, was " + progressSeconds);
    require(
        presplitRegions >= 0 && presplitRegions <= Math.max(1, rowsPerThread * threads),
        "--presplit must be 0 (one region) up to the number of rows, was " + presplitRegions);
    require(
        table != null && table.matches("[A-Za-z0-9_.-]+"),
        "--table must be letters, digits, '_', '-' and '.', was " + table);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  /** Rows in the table the run assumes: rows per thread times threads, as PE's totalRows. */
  public long totalRows() {
    return rowsPerThread * threads;
  }

  /** The options as JSON-ready maps. */
  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("command", workload.command());
    json.put("threads", threads);
    json.put("rowsPerThread", rowsPerThread);
    json.put("totalRows", totalRows());
    json.put("valueSize", valueSize);
    json.put("valueRandom", valueRandom);
    json.put("valueZipf", valueZipf);
    json.put("families", families);
    json.put("columns", columns);
    json.put("familyAttributes", new TreeMap<>(familyAttributes));
    json.put("cacheBlocks", cacheBlocks);
    json.put("filterAll", filterAll);
    json.put("rowReader", rowReader);
    json.put("writeToWAL", writeToWal);
    json.put("multiGet", multiGet);
    json.put("sampleRate", sampleRate);
    json.put("table", table);
    json.put("seed", seed);
    json.put("presplitRegions", presplitRegions);
    return json;
  }

  /** This run with another workload (the load phase of {@code --load}). */
  PeOptions withWorkload(PeWorkload other) {
    return new PeOptions(
        other,
        threads,
        rowsPerThread,
        valueSize,
        valueRandom,
        valueZipf,
        families,
        columns,
        familyAttributes,
        cacheBlocks,
        filterAll,
        rowReader,
        writeToWal,
        other == PeWorkload.RANDOM_READ ? multiGet : 0,
        sampleRate,
        latency,
        table,
        seed,
        progressSeconds,
        presplitRegions);
  }

  /**
   * The keys a new table is split at for {@code --presplit}, as HBase's PE splits it: the row
   * numbers {@code totalRows / regions * i} for {@code i} in 1..regions-1; none without it.
   */
  byte[][] splitKeys() {
    if (presplitRegions <= 1) {
      return new byte[0][];
    }
    long jump = totalRows() / presplitRegions;
    byte[][] keys = new byte[presplitRegions - 1][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = PeData.format(jump * (i + 1));
    }
    return keys;
  }
}
