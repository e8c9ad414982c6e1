package dev.cellar.cli.pe;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.cli.CommandFailure;
import dev.cellar.cli.DatabaseOptions;
import dev.cellar.cli.ExitCodes;
import dev.cellar.cli.FileFailures;
import dev.cellar.observe.http.InfoServerConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cellar pe [options] <command> <nthreads>}: HBase's PerformanceEvaluation against an
 * embedded Cellar (or, with {@code --connect}, a server through Cellar's client), with HBase's
 * commands, options and data, reporting what HBase's PE cannot show (GC, heap bytes per operation,
 * block cache tiers, allocator). Turns the command line into {@link PeOptions} and {@link PeSetup},
 * runs {@link PerformanceEvaluation} and prints the results, also as JSON with {@code --json}. Exit
 * code 1 when the run could not go on (the message says why).
 */
@Command(
    name = "pe",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run HBase's PerformanceEvaluation on Cellar.",
      "On an embedded database, or on a server with --connect.",
      "Commands: sequentialWrite, randomWrite, randomRead, sequentialRead, scan, scanRange10,"
          + " scanRange100, scanRange1000, scanRange10000, filterScan, randomSeekScan.",
      "Without --dir, the run makes a temporary database and deletes it at the end. Read commands"
          + " need rows: write them in an earlier run with --dir DIR and pass the same --dir,"
          + " or add --load to run sequentialWrite first in the same run.",
      "Examples, embedded and against a server:",
      "  cellar pe --rows=100000 --load randomRead 2",
      "  cellar pe --connect localhost:16020 --rows=100000 --load randomRead 2"
    },
    exitCodeList = "1:the run could not go on (one line on standard error says why)")
public final class PeCommand implements Callable<Integer> {

  /** HBase's "GB" for --size: 1024 x 1024 x 1000 bytes. */
  private static final long ONE_GB = 1024L * 1024 * 1000;

  private static final long DEFAULT_ROWS = ONE_GB / 1000;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<command>", description = "the test to run")
  String command;

  @Parameters(index = "1", paramLabel = "<nthreads>", description = "client threads")
  int threads;

  @Option(names = "--rows", description = "rows per thread (default 1048576)")
  Long rows;

  @Option(
      names = "--size",
      description = "total data in GB (1024 x 1024 x 1000 bytes), instead" + " of --rows")
  Double size;

  @Option(
      names = "--valueSize",
      defaultValue = "1000",
      description = "value bytes (default" + " ${DEFAULT-VALUE})")
  int valueSize;

  @Option(
      names = "--valueRandom",
      arity = "0..1",
      description = "value sizes uniform in [0," + " valueSize)")
  boolean valueRandom;

  @Option(
      names = "--valueZipf",
      arity = "0..1",
      description = "value sizes Zipf-distributed in" + " [1, valueSize)")
  boolean valueZipf;

  @Option(
      names = "--blockEncoding",
      defaultValue = "NONE",
      description =
          "DATA_BLOCK_ENCODING of" + " a new table: NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1")
  String blockEncoding;

  @Option(
      names = "--compress",
      defaultValue = "NONE",
      description = "COMPRESSION of a new table:" + " NONE, GZ, SNAPPY, LZ4, ZSTD")
  String compress;

  @Option(
      names = "--bloomFilter",
      defaultValue = "ROW",
      description = "BLOOMFILTER of a new" + " table: NONE, ROW, ROWCOL, ROWPREFIX_FIXED_LENGTH")
  String bloomFilter;

  @Option(names = "--blockSize", defaultValue = "65536", description = "BLOCKSIZE of a new table")
  int blockSize;

  @Option(names = "--inmemory", arity = "0..1", description = "IN_MEMORY of a new table")
  boolean inMemory;

  @Option(
      names = "--cacheBlocks",
      arity = "0..1",
      defaultValue = "true",
      description = "reads" + " cache the data blocks they read (default true)")
  boolean cacheBlocks;

  @Option(
      names = {"--row-reader", "--rowReader"},
      arity = "0..1",
      description =
          "Cellar only: reads go through"
              + " a RowReader per thread with one reused Get (no garbage per read) instead of a new Get"
              + " and Result per read, as HBase's PE does; default false")
  boolean rowReader;

  @Option(
      names = "--filterAll",
      arity = "0..1",
      description =
          "reads filter out every row"
              + " (FilterAllFilter): the cost of reading without returning data")
  boolean filterAll;

  @Option(
      names = "--sampleRate",
      defaultValue = "1.0",
      description = "fraction of operations" + " whose latency is recorded (default 1.0)")
  double sampleRate;

  @Option(
      names = "--latency",
      arity = "0..1",
      description = "also print mean, stddev, p99.999" + " and each thread's percentiles")
  boolean latency;

  @Option(
      names = "--writeToWAL",
      arity = "0..1",
      defaultValue = "true",
      description =
          "writes go" + " to the write-ahead log (default true; false writes with SKIP_WAL)")
  boolean writeToWal;

  @Option(
      names = "--families",
      defaultValue = "1",
      description = "column families info0.." + " (default 1)")
  int families;

  @Option(names = "--columns", defaultValue = "1", description = "columns per family (default 1)")
  int columns;

  @Option(names = "--multiGet", defaultValue = "0", description = "randomRead: gets per batch")
  int multiGet;

  @Option(
      names = "--presplit",
      defaultValue = "0",
      description = "create the table split into this many regions, as HBase's PE does")
  int presplit;

  @Option(
      names = "--table",
      defaultValue = "TestTable",
      description = "table name (default" + " ${DEFAULT-VALUE})")
  String table;

  @Mixin DatabaseOptions database;

  @Option(
      names = "--keep",
      description =
          "keep the temporary database, which a run without"
              + " --dir makes, instead of deleting it at the end")
  boolean keep;

  @Option(
      names = "--connect",
      paramLabel = "HOST:PORT",
      description =
          "run against a cellar"
              + " serve through Cellar's client instead of an embedded database; -D and --conf then"
              + " give the client's settings (hbase.rpc.timeout, hbase.client.retries.number, ...)")
  String connect;

  @Option(
      names = "--load",
      description = "read commands: run sequentialWrite with the same" + " rows and threads first")
  boolean load;

  @Option(names = "--compact", description = "major-compact the table after writing")
  boolean compact;

  @Option(
      names = "--info-port",
      paramLabel = "PORT",
      description =
          "serve /jmx, /prometheus and"
              + " the web UI on this port while the run lasts, to watch it live (0: any free port)")
  Integer infoPort;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
  Path json;

  @Option(names = "--seed", description = "random seed (default: time based, printed)")
  Long seed;

  @Option(
      names = "--progress",
      defaultValue = "5",
      paramLabel = "SECONDS",
      description =
          "seconds" + " between progress lines on stderr, 0 for none (default ${DEFAULT-VALUE})")
  int progress;

  @Override
  public Integer call() throws IOException {
    PeOptions options;
    PeSetup setup;
    try {
      options = options();
      setup = setup();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintStream out = System.out;
    PrintStream err = System.err;
    List<PeResult> results;
    try {
      results = PerformanceEvaluation.run(options, setup, err);
    } catch (PeException e) {
      throw new CommandFailure(e.getMessage());
    }
    for (PeResult result : results) {
      PeReport.print(result, options.latency(), out);
    }
    if (json != null) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("options", options.toJson());
      document.put("configuration", new LinkedHashMap<>(database.settings().overrides()));
      document.put("results", PeResult.toJson(results));
      try {
        Files.writeString(json, Json.write(document));
      } catch (IOException e) {
        throw new CommandFailure("--json " + FileFailures.describe(e));
      }
      err.println("cellar pe: results written to " + json);
    }
    return ExitCodes.DONE;
  }

  private PeOptions options() {
    PeWorkload workload = PeWorkload.of(command);
    if (threads < 1) {
      throw new IllegalArgumentException("<nthreads> must be at least 1, was " + threads);
    }
    if (rows != null && size != null) {
      throw new IllegalArgumentException("give --rows or --size, not both");
    }
    if (size != null && !(size > 0)) {
      throw new IllegalArgumentException("--size must be above 0 GB, was " + size);
    }
    if (valueSize < 1) {
      throw new IllegalArgumentException("--valueSize must be at least 1, was " + valueSize);
    }
    long perThread =
        size != null
            ? (long) (size * ONE_GB / valueSize) / threads
            : rows != null ? rows : DEFAULT_ROWS;
    if (size != null && perThread < 1) {
      throw new IllegalArgumentException(
          "--size "
              + size
              + " GB of "
              + valueSize
              + "-byte values"
              + " gives less than one row per thread");
    }
    Map<String, String> attributes =
        Map.of(
            "BLOCKSIZE",
            Integer.toString(blockSize),
            "BLOOMFILTER",
            bloomFilter,
            "DATA_BLOCK_ENCODING",
            blockEncoding,
            "COMPRESSION",
            compress,
            "IN_MEMORY",
            Boolean.toString(inMemory));
    ColumnFamilyDescriptor.of(PeData.familyName(0), attributes);
    return new PeOptions(
        workload,
        threads,
        perThread,
        valueSize,
        valueRandom,
        valueZipf,
        families,
        columns,
        attributes,
        cacheBlocks,
        filterAll,
        rowReader,
        writeToWal,
        multiGet,
        sampleRate,
        latency,
        table,
        seed != null ? seed : System.nanoTime(),
        progress,
        presplit);
  }

  private PeSetup setup() {
    if (load && PeWorkload.of(command).writes()) {
      throw new IllegalArgumentException(
          "--load is for read commands; " + command + " writes the rows itself");
    }
    String dir = database.given(null);
    if (connect != null && (dir != null || keep)) {
      throw new IllegalArgumentException(
          "--dir and --keep are for an embedded database; with"
              + " --connect the data is in the server's directory");
    }
    CellarConfig config = database.config();
    if (infoPort != null) {
      config = config.with(InfoServerConfig.PORT_KEY, infoPort.toString());
    }
    return new PeSetup(dir, keep, config, load, compact, connect);
  }
}
