package dev.cellar.cli.rocksdb;

import dev.cellar.CellarConfig;
import dev.cellar.cli.ConfigOptions;
import dev.cellar.cli.pe.Json;
import dev.cellar.observe.http.InfoServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cellar bench rocksdb}: Cellar and RocksDB (JNI) side by side on PE-shaped rows (or rows of
 * another key length, columns and value size): the same random gets and, with {@code --workload
 * scan}, the same scans with block caches of the same size, for each cache ratio (by default the
 * data fits, then the cache holds a third of it), and with {@code --workload write} the same
 * batches of new rows written with the log synced per batch. See {@link RocksDbComparison}.
 */
@Command(
    name = "rocksdb",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compare Cellar with RocksDB on the same rows and block cache size.",
      "Cellar and RocksDB side by side: the same rows, the same block cache size, the same random"
          + " gets.",
      "Both stores are loaded, flushed and compacted; each scenario reopens them with a cache of"
          + " --cache-ratio x the data, checks values, warms up and measures.",
      "With --workload scan, both scan the table (each thread its share, or --scan-rows rows from"
          + " random rows); with write, both write batches of --batch new rows with the log"
          + " synced per batch.",
      "Example:",
      "  cellar bench rocksdb --rows 1000000 --seconds 30 --workload get,scan,write"
    })
public final class RocksDbCompareCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--workload",
      split = ",",
      defaultValue = "get",
      description =
          "what to"
              + " measure, one or more of: get (random gets per cache ratio), scan (scans per cache"
              + " ratio), write (batches of new rows, log synced per batch); default ${DEFAULT-VALUE}")
  List<String> workloads;

  @Option(
      names = "--rows",
      defaultValue = "1000000",
      description = "rows (default ${DEFAULT-VALUE})")
  long rows;

  @Option(
      names = {"--value-size", "--valueSize"},
      defaultValue = "1000",
      description = "value bytes (default ${DEFAULT-VALUE})")
  int valueSize;

  @Option(
      names = "--columns",
      defaultValue = "1",
      description =
          "values per row, each of"
              + " --value-size bytes: Cellar's columns info0:0.., one RocksDB value in YCSB's layout"
              + " (default ${DEFAULT-VALUE})")
  int columns;

  @Option(
      names = {"--key-length", "--keyLength"},
      defaultValue = "26",
      description =
          "row key bytes: the row"
              + " number in zero-padded digits, 26 as PE (default ${DEFAULT-VALUE})")
  int keyLength;

  @Option(
      names = {"--scan-rows", "--scanRows"},
      defaultValue = "0",
      description =
          "rows per scan from a random"
              + " row, or 0 for scans of each thread's share of the table (default ${DEFAULT-VALUE})")
  long scanRows;

  @Option(
      names = {"--cache-blocks", "--cacheBlocks"},
      defaultValue = "true",
      arity = "0..1",
      description =
          "whether"
              + " scans cache the blocks they read (Cellar's Scan.setCacheBlocks, RocksDB's fill_cache;"
              + " default ${DEFAULT-VALUE})")
  boolean cacheBlocks;

  @Option(
      names = "--threads",
      defaultValue = "2",
      description = "threads reading or writing (default ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--ops",
      defaultValue = "0",
      description =
          "gets (scans for scan, batches for"
              + " write) per store and scenario, in all; 0 to run --seconds")
  long operations;

  @Option(
      names = "--seconds",
      defaultValue = "20",
      description =
          "seconds per store and scenario" + " when --ops is 0 (default ${DEFAULT-VALUE})")
  int seconds;

  @Option(
      names = "--rounds",
      defaultValue = "5",
      description =
          "rounds each get or scan phase is"
              + " cut into, Cellar and RocksDB taking turns, so a busy machine's load falls on both alike;"
              + " the ratios per round are reported with their median (default ${DEFAULT-VALUE})")
  int rounds;

  @Option(
      names = {"--cache-ratio", "--cacheRatio"},
      split = ",",
      defaultValue = "1.5,0.333",
      description =
          "block"
              + " cache size as a multiple of the data, one scenario each (default ${DEFAULT-VALUE})")
  List<Double> cacheRatios;

  @Option(
      names = {"--cache-tier", "--cacheTier"},
      defaultValue = "L1",
      description =
          "Cellar's cache: L1 (on heap)"
              + " or L2 (a small L1 for index and bloom blocks, data in an off-heap L2); default"
              + " ${DEFAULT-VALUE}")
  String cacheTier;

  @Option(
      names = "--warmup",
      description =
          "random gets (rows written, for write) per store"
              + " before each measurement (default: as many as rows); scans warm up with one pass over"
              + " the table unless this is 0")
  Long warmup;

  @Option(
      names = "--batch",
      defaultValue = "100",
      description = "rows per batch of the write" + " workload (default ${DEFAULT-VALUE})")
  int batch;

  @Option(
      names = "--verify",
      defaultValue = "1000",
      description =
          "random rows whose values are"
              + " checked on both stores before each scenario (default ${DEFAULT-VALUE})")
  int verify;

  @Option(
      names = "--dir",
      description =
          "where both stores are written (default: a temporary" + " directory, deleted at the end)")
  Path dir;

  @Mixin ConfigOptions settings;

  @Option(
      names = "--family",
      paramLabel = "ATTRIBUTE=VALUE",
      description =
          "an attribute of"
              + " Cellar's column family, in HBase's names (e.g. DATA_BLOCK_ENCODING=FAST_DIFF,"
              + " BLOCKSIZE=16384); default HBase's defaults")
  Map<String, String> familyAttributes = new LinkedHashMap<>();

  @Option(
      names = "--info-port",
      paramLabel = "PORT",
      description =
          "serve Cellar's /jmx,"
              + " /prometheus and web UI on this port while each scenario runs (0: any free port)")
  Integer infoPort;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "random seed (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--progress",
      defaultValue = "10",
      paramLabel = "SECONDS",
      description =
          "seconds" + " between progress lines on stderr, 0 for none (default ${DEFAULT-VALUE})")
  int progress;

  @Option(
      names = {"--cellar-api", "--cellarApi"},
      defaultValue = "view",
      description =
          "Cellar's reads: view (a"
              + " reused RowReader and Get, a RowScanner: zero garbage) or result (Table.get with a new Get,"
              + " Table.scanner, a Result per row, as HBase's API); default view")
  String cellarApi;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
  Path json;

  private CellarConfig cellarConfig() {
    CellarConfig config = settings.config();
    return infoPort == null ? config : config.with(InfoServerConfig.PORT_KEY, infoPort.toString());
  }

  @Override
  public Integer call() throws IOException {
    ComparisonSettings settings;
    try {
      settings =
          new ComparisonSettings(
              workloads(),
              new RowShape(keyLength, columns, valueSize),
              rows,
              threads,
              operations,
              seconds,
              cacheRatios,
              warmup != null ? warmup : rows,
              tier(),
              dir,
              cellarConfig(),
              seed,
              verify,
              progress,
              batch,
              scanRows,
              cacheBlocks,
              rounds,
              familyAttributes);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    List<RocksDbComparison.ComparedStoreType> stores =
        List.of(
            new RocksDbComparison.ComparedStoreType(
                "Cellar",
                "cellar",
                CellarSide.opener(
                    settings.cacheTier(), settings.config(), api(), settings.familyAttributes())),
            new RocksDbComparison.ComparedStoreType("RocksDB", "rocksdb", RocksDbSide::open));
    RocksDbComparison.Comparison comparison =
        new RocksDbComparison(settings, stores, System.err).run();
    ComparisonReport.print(settings, comparison, System.out);
    if (json != null) {
      Files.writeString(json, Json.write(ComparisonReport.toJson(settings, comparison)));
    }
    return 0;
  }

  private CellarSide.Api api() {
    try {
      return CellarSide.Api.valueOf(cellarApi.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(), "--cellar-api must be view or result, was " + cellarApi);
    }
  }

  private Set<Workload> workloads() {
    Set<Workload> chosen = EnumSet.noneOf(Workload.class);
    for (String name : workloads) {
      chosen.add(Workload.parse(name));
    }
    return chosen;
  }

  private CellarSide.CacheTier tier() {
    try {
      return CellarSide.CacheTier.valueOf(cacheTier.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--cache-tier must be L1 or L2, was " + cacheTier);
    }
  }
}
