package dev.cellar.cli.experiments.showdown;

import dev.cellar.CellarConfig;
import dev.cellar.cli.ServerProcess;
import dev.cellar.cli.pe.PeOptions;
import dev.cellar.cli.pe.PeSetup;
import dev.cellar.cli.pe.PeWorkload;
import dev.cellar.cli.pe.PerformanceEvaluation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes PE's table for an experiment with {@code cellar pe}'s own sequentialWrite: 1000-byte
 * values, one column, 64 KiB blocks, no encoding or compression, a row bloom filter, as the seeds'
 * PE tables; without the log, then flushed and major-compacted into one file, and kept in the given
 * directory for the deploys to open. Embedded, PE writes in this JVM; through the network, it
 * writes through Cellar's client to a {@code cellar serve} of the directory started for the load
 * ({@link ServerProcess}, {@value #LOADER_HEAP_MIB} MiB of heap) and stopped after it.
 */
public final class PeTableLoader {

  public static final String TABLE = "TestTable";
  public static final int VALUE_SIZE = 1000;
  private static final int THREADS = 2;
  private static final long LOADER_HEAP_MIB = 1024;

  private PeTableLoader() {}

  /** Loads about {@code rows} rows into {@code database}; returns the rows written. */
  public static long load(Path database, long rows, long seed, PrintStream progress)
      throws IOException {
    PerformanceEvaluation.run(
        options(rows, seed),
        new PeSetup(database.toString(), true, CellarConfig.defaults(), false, true),
        progress);
    return perThread(rows) * THREADS;
  }

  /**
   * Loads about {@code rows} rows into {@code database} through a server of its own listening on
   * {@code bind}; returns the rows written.
   */
  public static long loadThroughServer(
      Path database, long rows, long seed, String bind, PrintStream progress) throws IOException {
    try (ServerProcess server =
        ServerProcess.start(
            "the load",
            database,
            LOADER_HEAP_MIB << 20,
            LOADER_HEAP_MIB << 19,
            Map.of(),
            bind,
            progress)) {
      PerformanceEvaluation.run(
          options(rows, seed),
          new PeSetup(null, false, CellarConfig.defaults(), false, true, server.address()),
          progress);
    }
    return perThread(rows) * THREADS;
  }

  private static long perThread(long rows) {
    return Math.max(1, rows / THREADS);
  }

  private static PeOptions options(long rows, long seed) {
    return new PeOptions(
        PeWorkload.SEQUENTIAL_WRITE,
        THREADS,
        perThread(rows),
        VALUE_SIZE,
        false,
        false,
        1,
        1,
        Map.of(
            "BLOCKSIZE",
            "65536",
            "BLOOMFILTER",
            "ROW",
            "DATA_BLOCK_ENCODING",
            "NONE",
            "COMPRESSION",
            "NONE"),
        true,
        false,
        false,
        false,
        0,
        0.01,
        false,
        TABLE,
        seed,
        10,
        0);
  }
}
