package dev.cellar.cli.ycsb;

import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.TableDescriptor;
import dev.cellar.cli.CommandFailure;
import dev.cellar.cli.ConfigOptions;
import dev.cellar.cli.ExitCodes;
import dev.cellar.cli.ServerConnect;
import dev.cellar.client.CellarClient;
import dev.cellar.client.ClientSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * {@code cellar ycsb load|run --connect HOST:PORT}: YCSB's own {@code site.ycsb.Client} with
 * Cellar's binding ({@link CellarYcsbDb}) and one of the workloads A to F shipped with Cellar (or a
 * workload file). {@code load} creates the table ({@code usertable}, family {@code family} unless
 * {@code -p table=} or {@code -p columnfamily=} say otherwise) when it is missing, then inserts the
 * records; {@code run} runs the workload's operations. Either first connects through {@link
 * ServerConnect}, so that a server that cannot be reached is reported at once, before YCSB's client
 * starts. YCSB's client runs in a child JVM (it ends its process when done), with this one's class
 * path; its report is copied to standard output. Settings for the client ({@code
 * hbase.rpc.timeout}, ...) come from {@code --conf} and {@code -D}, and from YCSB's {@code -p},
 * which wins. Exit code 1 when the server cannot be reached or the table made (one line on standard
 * error says why), or YCSB's client failed (its report says why).
 */
@Command(
    name = "ycsb",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run YCSB's client with Cellar's binding against a cellar serve.",
      "Examples:",
      "  cellar ycsb load --connect localhost:16020 --workload a --records 100000",
      "  cellar ycsb run --connect localhost:16020 --workload a --operations 100000"
    },
    exitCodeList =
        "1:the server could not be reached or the table made (one line on standard"
            + " error says why), or YCSB's client failed (its report says why)")
public final class YcsbCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "load|run",
      description = "insert the records, or run" + " the workload's operations")
  String phase;

  @Option(
      names = "--connect",
      required = true,
      paramLabel = "HOST:PORT",
      description = "the cellar serve to use")
  String connect;

  @Option(
      names = "--workload",
      defaultValue = "a",
      paramLabel = "A-F|FILE",
      description =
          "a" + " workload shipped with Cellar (a to f, as YCSB's) or a workload file (default a)")
  String workload;

  @Option(names = "--threads", defaultValue = "1", description = "client threads (default 1)")
  int threads;

  @Option(
      names = "--records",
      paramLabel = "N",
      description = "recordcount (default the" + " workload's)")
  Long records;

  @Option(
      names = "--operations",
      paramLabel = "N",
      description = "operationcount (default the" + " workload's)")
  Long operations;

  @Option(
      names = "-p",
      paramLabel = "key=value",
      description = "a YCSB property, e.g. -p" + " fieldcount=1; also taken as a client setting")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(
      names = "--presplit",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "load: create the table split at N keys, as YCSB's HBase guide does (user1000 +"
              + " i x 8999 / N)")
  int presplit;

  @Mixin ConfigOptions settings;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (!phase.equals("load") && !phase.equals("run")) {
      throw new ParameterException(
          spec.commandLine(), "the phase is load or run," + " not '" + phase + "'");
    }
    if (threads < 1) {
      throw new ParameterException(
          spec.commandLine(), "--threads must be at least" + " 1, was " + threads);
    }
    Path workloadFile = workloadFile();
    String table = properties.getOrDefault("table", "usertable");
    String family = properties.getOrDefault(CellarYcsbDb.FAMILY, CellarYcsbDb.DEFAULT_FAMILY);
    CellarConfig config = settings.config().withAll(properties);
    try {
      try (CellarClient client =
          ServerConnect.open("cellar ycsb", connect, ClientSettings.from(config), System.err)) {
        if (phase.equals("load")) {
          createTableIfMissing(client, table, family, splitKeys(presplit));
        }
      }
      return runClient(workloadFile, config) == 0 ? ExitCodes.DONE : ExitCodes.FAILED;
    } catch (IOException | IllegalArgumentException | UncheckedIOException e) {
      throw new CommandFailure(e.getMessage());
    } finally {
      if (!Files.exists(Path.of(workload))) {
        Files.deleteIfExists(workloadFile);
      }
    }
  }

  private Path workloadFile() throws IOException {
    Path given = Path.of(workload);
    if (Files.isRegularFile(given)) {
      return given;
    }
    String name = "workload" + workload.toLowerCase(java.util.Locale.ROOT);
    try (InputStream shipped = YcsbCommand.class.getResourceAsStream(name)) {
      if (shipped == null || !workload.matches("[a-fA-F]")) {
        throw new ParameterException(
            spec.commandLine(), "--workload " + workload + " is neither a to f nor a file");
      }
      Path file = Files.createTempFile("cellar-ycsb-" + name + "-", "");
      Files.write(file, shipped.readAllBytes());
      return file;
    }
  }

  private static void createTableIfMissing(
      CellarClient client, String table, String family, byte[][] splitKeys) throws IOException {
    if (!client.admin().tableExists(table)) {
      client
          .admin()
          .createTable(TableDescriptor.of(table, ColumnFamilyDescriptor.of(family)), splitKeys);
      System.err.println(
          "cellar ycsb: created table "
              + table
              + " with family "
              + family
              + (splitKeys.length == 0 ? "" : " in " + (splitKeys.length + 1) + " regions"));
    }
  }

  /**
   * The split keys YCSB's HBase guide creates {@code usertable} with for {@code splits} splits:
   * {@code user} followed by {@code 1000 + i * (9999 - 1000) / splits} for {@code i} in 1..splits
   * (integer arithmetic, as the guide's shell line computes them); none for 0.
   */
  static byte[][] splitKeys(int splits) {
    if (splits < 0) {
      throw new IllegalArgumentException("--presplit must be 0 or more, was " + splits);
    }
    byte[][] keys = new byte[splits][];
    for (int i = 1; i <= splits; i++) {
      keys[i - 1] =
          ("user" + (1000 + (long) i * (9999 - 1000) / splits))
              .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
    return keys;
  }

  /** Runs YCSB's client with {@code config}'s settings as its properties; its exit code. */
  private int runClient(Path workloadFile, CellarConfig config)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                "site.ycsb.Client",
                phase.equals("load") ? "-load" : "-t",
                "-db",
                CellarYcsbDb.class.getName(),
                "-P",
                workloadFile.toString(),
                "-threads",
                Integer.toString(threads),
                "-p",
                CellarYcsbDb.CONNECT + "=" + connect));
    if (records != null) {
      command.addAll(List.of("-p", "recordcount=" + records));
    }
    if (operations != null) {
      command.addAll(List.of("-p", "operationcount=" + operations));
    }
    config.values().forEach((key, value) -> command.addAll(List.of("-p", key + "=" + value)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    PrintStream out = System.out;
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        out.println(line);
      }
    }
    return process.waitFor();
  }
}
