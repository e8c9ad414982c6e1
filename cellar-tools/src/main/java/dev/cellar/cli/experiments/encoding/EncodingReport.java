package dev.cellar.cli.experiments.encoding;

import dev.cellar.cli.experiments.TierHitRatios;
import dev.cellar.cli.experiments.report.Chart;
import dev.cellar.cli.experiments.report.ExperimentReport;
import dev.cellar.cli.experiments.report.Reference;
import dev.cellar.cli.experiments.report.Words;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the measured pairs into the experiment's report: a title naming the pairs and rows that
 * ran, the results table (with the block cache's hit ratios per tier in each Get phase), the charts
 * (footprint, the footprint against the seed's, scan times, Get latency) and the seed's published
 * footprints, which are its only figures given as numbers (its scan and Get times are charts).
 */
final class EncodingReport {

  /** The seed's on-disk sizes in MB for 32M rows, by the pair they correspond to. */
  private static final Map<String, Double> SEED_DISK_MB = seedDiskMb();

  private EncodingReport() {}

  private static Map<String, Double> seedDiskMb() {
    Map<String, Double> mb = new LinkedHashMap<>();
    mb.put("NONE+GZ", 595.0);
    mb.put("FAST_DIFF+NONE", 875.0);
    mb.put("NONE+SNAPPY", 993.0);
    mb.put("PREFIX+NONE", 1739.0);
    mb.put("NONE+NONE", 2922.0);
    return mb;
  }

  static ExperimentReport of(EncodingSettings settings, List<EncodingCase> cases) {
    double noneBytes =
        cases.stream()
            .filter(c -> c.label().equals("NONE+NONE"))
            .mapToDouble(EncodingCase::diskBytes)
            .findFirst()
            .orElse(Double.NaN);
    List<String> columns =
        new ArrayList<>(
            List.of(
                "encoding",
                "compression",
                "rows",
                "diskBytes",
                "diskBytesPerRow",
                "diskVsNone",
                "seedDiskVsNone",
                "cachedBytes",
                "cachedBytesPerRow",
                "loadMillis",
                "scanCacheOffMillis",
                "scanCachedMillis",
                "getCacheOffP50Micros",
                "getCacheOffP99Micros",
                "getCachedP50Micros",
                "getCachedP99Micros"));
    columns.addAll(TierHitRatios.columns("getCacheOffHitRatio"));
    columns.addAll(TierHitRatios.columns("getCachedHitRatio"));
    List<List<Object>> rows = new ArrayList<>();
    for (EncodingCase c : cases) {
      Double seed = SEED_DISK_MB.get(c.label());
      List<Object> row =
          new ArrayList<>(
              Arrays.asList(
                  c.encoding(),
                  c.compression(),
                  c.rows(),
                  c.diskBytes(),
                  (double) c.diskBytes() / c.rows(),
                  c.diskBytes() / noneBytes,
                  seed == null ? null : seed / SEED_DISK_MB.get("NONE+NONE"),
                  c.cachedBytes(),
                  (double) c.cachedBytes() / c.rows(),
                  c.loadMillis(),
                  c.scanUncachedMillis(),
                  c.scanCachedMillis(),
                  c.getsUncached().latencyMicros(50),
                  c.getsUncached().latencyMicros(99),
                  c.getsCached().latencyMicros(50),
                  c.getsCached().latencyMicros(99)));
      row.addAll(c.getsUncachedHits().values());
      row.addAll(c.getsCachedHits().values());
      rows.add(row);
    }
    List<String> labels = cases.stream().map(EncodingCase::label).toList();
    List<Chart> charts =
        List.of(
            new Chart(
                "footprint",
                "Footprint per row: on disk and in the block cache",
                "bytes/row",
                labels,
                List.of(
                    series("on disk", cases, c -> (double) c.diskBytes() / c.rows()),
                    series("in the block cache", cases, c -> (double) c.cachedBytes() / c.rows()))),
            seedChart(cases, noneBytes),
            new Chart(
                "scan",
                "Full scan, one thread",
                "ms",
                labels,
                List.of(
                    series("block cache off (OS cache)", cases, EncodingCase::scanUncachedMillis),
                    series("from the block cache", cases, EncodingCase::scanCachedMillis))),
            new Chart(
                "get",
                "Random Get latency, one thread (p50)",
                "µs",
                labels,
                List.of(
                    series(
                        "block cache off (OS cache)",
                        cases,
                        c -> c.getsUncached().latencyMicros(50)),
                    series("from the block cache", cases, c -> c.getsCached().latencyMicros(50)))));
    List<List<Object>> seedRows = new ArrayList<>();
    SEED_DISK_MB.forEach(
        (pair, mb) ->
            seedRows.add(
                List.of(
                    pair, mb, mb / SEED_DISK_MB.get("NONE+NONE"), mb * 1024 * 1024 / 32_000_000)));
    Reference seed =
        new Reference(
            "HBase - Compression vs Block Encoding (Lars Hofhansl, February 2016)",
            "32M rows (128M cells: an int key, two floats and Phoenix's marker column) of an Apache"
                + " Phoenix table on one machine; footprint on disk",
            List.of("pair", "on disk (MB)", "vs NONE+NONE", "bytes/row"),
            seedRows);
    Map<String, Object> configuration = settings.toJson();
    return new ExperimentReport(
        "encoding",
        title(settings),
        "Which DATA_BLOCK_ENCODING and COMPRESSION to choose: what each costs on disk and in the"
            + " block cache, and how fast full scans and random Gets are with the block cache"
            + " off (files in the OS cache) and on.",
        configuration,
        List.of(),
        columns,
        rows,
        charts,
        List.of(seed),
        notes(),
        settings.smokeReasons());
  }

  /** What ran: the encodings, the compressions and the rows of each table. */
  static String title(EncodingSettings settings) {
    return "Block encodings "
        + Words.and(settings.encodings())
        + " with compressions "
        + Words.and(settings.compressions())
        + ": footprint, scans and Gets of "
        + String.format("%,d", settings.rows())
        + " rows";
  }

  private static Chart seedChart(List<EncodingCase> cases, double noneBytes) {
    List<String> labels = new ArrayList<>();
    List<Double> ours = new ArrayList<>();
    List<Double> theirs = new ArrayList<>();
    for (EncodingCase c : cases) {
      Double seed = SEED_DISK_MB.get(c.label());
      if (seed != null) {
        labels.add(c.label());
        ours.add(c.diskBytes() / noneBytes);
        theirs.add(seed / SEED_DISK_MB.get("NONE+NONE"));
      }
    }
    return new Chart(
        "seed-footprint",
        "On disk relative to NONE+NONE: Cellar and the seed",
        "× NONE+NONE",
        labels,
        List.of(
            new Chart.Series("Cellar", ours),
            new Chart.Series("seed (HBase + Phoenix, 2016)", theirs)));
  }

  private static Chart.Series series(
      String name,
      List<EncodingCase> cases,
      java.util.function.ToDoubleFunction<EncodingCase> value) {
    return new Chart.Series(name, cases.stream().map(c -> value.applyAsDouble(c)).toList());
  }

  private static List<String> notes() {
    return List.of(
        "Encoded blocks are cached encoded and decoded cell by cell as they are read;"
            + " compressed blocks are cached decompressed (hbase.block.data.cachecompressed is"
            + " off), so the cached footprint of a compressed pair is that of its encoding.",
        "'Block cache off' scans and Gets set cacheBlocks=false: every block is read from the"
            + " file (in the OS cache after the first scan), checked and decompressed.",
        "The seed published its footprints as numbers and its times as charts; the times are"
            + " compared in docs/perf/2026-11-25-seed-experiments.md, not here.",
        "Hit ratios are the block cache's during each timed Get phase, per tier: the L1 (the"
            + " only cache without an L2), the L2 and both combined; empty where a tier had no"
            + " lookups or there is no L2.");
  }
}
