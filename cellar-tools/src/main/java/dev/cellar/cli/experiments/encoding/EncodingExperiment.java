package dev.cellar.cli.experiments.encoding;

import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.cli.experiments.TierHitRatios;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.cli.pe.LoadRunner;
import dev.cellar.cli.pe.RunMeasurement;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the encoding and compression matrix: for each pair, a table of its own ({@link PairStore}: a
 * fresh embedded database in a temporary directory, so each pair starts with an empty block cache,
 * or a table of a running server reached through Cellar's client), the seed's rows loaded, flushed
 * and major-compacted into one file, then measured in the order the seed's scenarios allow on one
 * machine: the footprint on disk; a full scan that does not cache blocks, then two more timed, the
 * faster kept (files in the OS cache: the seed's "OS cache"); random Gets that do not cache blocks;
 * a full scan that caches its blocks (after which the block cache's size is the cached footprint),
 * then two more timed (the seed's "HBase cache"); random Gets from the warm cache. Each Get phase
 * follows an untimed one of half its Gets (other rows), so the JIT has compiled the pair's decoder
 * before it is timed. The table is deleted before the next pair.
 *
 * <p>Scans and Gets run on one thread, as the seed's serial scans and its Get tool did. Every scan
 * checks it saw every row, so an encoding that loses rows fails the run instead of looking fast.
 */
public final class EncodingExperiment {

  static final String TABLE = "test";

  private EncodingExperiment() {}

  /** Runs every pair of {@code settings}; progress goes to {@code progress}. */
  public static List<EncodingCase> run(EncodingSettings settings, PrintStream progress)
      throws IOException {
    List<EncodingCase> cases = new ArrayList<>();
    int total = settings.encodings().size() * settings.compressions().size();
    int index = 0;
    try (PairStore.Factory stores =
        settings.connect() == null
            ? EmbeddedPairStore.factory(settings.config())
            : ServedPairStore.factory(settings.connect(), settings.infoAddress())) {
      for (String encoding : settings.encodings()) {
        for (String compression : settings.compressions()) {
          index++;
          progress.printf(
              "cellar bench encoding: [%d/%d] %s + %s: %,d rows%n",
              index, total, encoding, compression, settings.rows());
          try (PairStore store =
              stores.create(encoding, compression, settings.family(encoding, compression))) {
            cases.add(runCase(settings, store, encoding, compression, progress));
          }
        }
      }
    }
    return cases;
  }

  private static EncodingCase runCase(
      EncodingSettings settings,
      PairStore store,
      String encoding,
      String compression,
      PrintStream progress)
      throws IOException {
    long start = System.nanoTime();
    Table table = store.table();
    PhoenixRows.load(table, settings.rows(), settings.seed());
    store.admin().flush(store.tableName());
    store.admin().majorCompact(store.tableName());
    long loadMillis = (System.nanoTime() - start) / 1_000_000;
    long diskBytes = store.diskBytes();

    scanMillis(table, settings.rows(), false);
    double scanUncached = fasterOfTwo(table, settings.rows(), false);
    Gets getsUncached = gets(store, settings, false, progress);
    long cachedBefore = store.cachedBytes();
    scanMillis(table, settings.rows(), true);
    long cachedBytes = store.cachedBytes() - cachedBefore;
    double scanCached = fasterOfTwo(table, settings.rows(), true);
    Gets getsCached = gets(store, settings, true, progress);
    EncodingCase result =
        new EncodingCase(
            encoding,
            compression,
            settings.rows(),
            diskBytes,
            cachedBytes,
            loadMillis,
            scanUncached,
            scanCached,
            getsUncached.measured(),
            getsCached.measured(),
            getsUncached.hitRatios(),
            getsCached.hitRatios());
    progress.printf(
        "cellar bench encoding:   disk %,d B, cached %,d B, scan %.0f ms"
            + " (cache off) %.0f ms (cached), Get p50 %.1f us (cache off) %.1f us (cached), Get hit"
            + " ratios %s (cache off) %s (cached)%n",
        diskBytes,
        cachedBytes,
        scanUncached,
        scanCached,
        getsUncached.measured().latencyMicros(50),
        getsCached.measured().latencyMicros(50),
        getsUncached.hitRatios().describe(),
        getsCached.hitRatios().describe());
    return result;
  }

  /** A timed Get phase and the block cache's hit ratios per tier during it. */
  private record Gets(RunMeasurement measured, TierHitRatios hitRatios) {}

  /** The faster of two timed full scans: a short scan is at the mercy of a busy machine. */
  private static double fasterOfTwo(Table table, long rows, boolean cacheBlocks)
      throws IOException {
    return Math.min(scanMillis(table, rows, cacheBlocks), scanMillis(table, rows, cacheBlocks));
  }

  private static double scanMillis(Table table, long rows, boolean cacheBlocks) throws IOException {
    long start = System.nanoTime();
    long seen = 0;
    try (ResultScanner scanner = table.scanner(new Scan().setCacheBlocks(cacheBlocks))) {
      while (true) {
        try (Result result = scanner.next()) {
          if (result == null) {
            break;
          }
          if (result.size() != PhoenixRows.CELLS_PER_ROW) {
            throw new IOException(
                "a scan found "
                    + result.size()
                    + " cells in a row of "
                    + PhoenixRows.CELLS_PER_ROW);
          }
          seen++;
        }
      }
    }
    double millis = (System.nanoTime() - start) / 1e6;
    if (seen != rows) {
      throw new IOException("a full scan saw " + seen + " rows of the " + rows + " written");
    }
    return millis;
  }

  private static Gets gets(
      PairStore store, EncodingSettings settings, boolean cacheBlocks, PrintStream progress)
      throws IOException {
    Table table = store.table();
    String name = cacheBlocks ? "gets-cached" : "gets-uncached";
    long seed = settings.seed() + (cacheBlocks ? 1 : 2);
    LoadRunner.run(
        new LoadRunner.Plan(name + "-warmup", 1, Math.max(1, settings.gets() / 2), 0, 1.0, 0),
        thread -> new RandomGets(table, settings.rows(), cacheBlocks, ~seed),
        progress);
    CacheFigures before = store.cache();
    RunMeasurement measured =
        LoadRunner.run(
            new LoadRunner.Plan(name, 1, settings.gets(), 0, 1.0, 0),
            thread -> new RandomGets(table, settings.rows(), cacheBlocks, seed),
            progress);
    return new Gets(measured, TierHitRatios.of(store.cache().since(before)));
  }
}
