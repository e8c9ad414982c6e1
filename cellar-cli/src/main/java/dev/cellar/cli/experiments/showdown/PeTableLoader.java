package dev.cellar.cli.experiments.showdown;

import dev.cellar.CellarConfig;
import dev.cellar.cli.pe.PeOptions;
import dev.cellar.cli.pe.PeSetup;
import dev.cellar.cli.pe.PeWorkload;
import dev.cellar.cli.pe.PerformanceEvaluation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes PE's table for an experiment with {@code cellar pe}'s own sequentialWrite, in this JVM:
 * 1000-byte values, one column, 64 KiB blocks, no encoding or compression, a row bloom filter, as
 * the seeds' PE tables; without the log, then flushed and major-compacted into one file, and kept
 * in the given directory for the deploys' JVMs to open.
 */
public final class PeTableLoader {

  public static final String TABLE = "TestTable";
  public static final int VALUE_SIZE = 1000;
  private static final int THREADS = 2;

  private PeTableLoader() {}

  /** Loads about {@code rows} rows into {@code database}; returns the rows written. */
  public static long load(Path database, long rows, long seed, PrintStream progress)
      throws IOException {
    long perThread = Math.max(1, rows / THREADS);
    PeOptions load = new PeOptions(PeWorkload.SEQUENTIAL_WRITE, THREADS, perThread, VALUE_SIZE,
        false, false, 1, 1, Map.of("BLOCKSIZE", "65536", "BLOOMFILTER", "ROW",
            "DATA_BLOCK_ENCODING", "NONE", "COMPRESSION", "NONE"), true, false, false, false, 0,
        0.01, false, TABLE, seed, 10);
    PerformanceEvaluation.run(load, new PeSetup(database.toString(), true, CellarConfig.defaults(), false,
        true), progress);
    return perThread * THREADS;
  }
}
