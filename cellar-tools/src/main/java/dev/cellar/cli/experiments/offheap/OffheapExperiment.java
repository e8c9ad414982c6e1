package dev.cellar.cli.experiments.offheap;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.cli.ServerProcess;
import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.Directories;
import dev.cellar.cli.experiments.showdown.ChildJvm;
import dev.cellar.cli.experiments.showdown.Deploy;
import dev.cellar.cli.experiments.showdown.DeploySizing;
import dev.cellar.cli.experiments.showdown.PeTableLoader;
import dev.cellar.cli.experiments.showdown.Phase;
import dev.cellar.cli.experiments.showdown.PhaseFigures;
import dev.cellar.cli.experiments.showdown.ServedDeploy;
import dev.cellar.cli.experiments.showdown.ShowdownChild;
import dev.cellar.cli.experiments.showdown.YcsbRecords;
import dev.cellar.client.CellarClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Runs the off-heap experiment: PE's table and the YCSB table ({@link YcsbRecords}) loaded once
 * into one database (sized to fit either deploy's cache), then the on-heap deploy (every block in
 * the LRU L1, a large heap) and the off-heap one (data blocks in an off-heap BucketCache, a small
 * heap), each in a JVM of its own (embedded: {@link ShowdownChild} through {@link ChildJvm};
 * through the network: a {@code cellar serve} per deploy, {@link ServedDeploy}, the tables loaded
 * through the client too): warmed by a full caching scan of both tables, then every workload of
 * {@link OffheapSettings#phases()} at each thread count. The database is deleted at the end.
 */
final class OffheapExperiment {

  private static final long LOADER_HEAP = 1L << 30;

  private OffheapExperiment() {}

  static List<OffheapCase> run(OffheapSettings settings, PrintStream progress) throws IOException {
    List<OffheapCase> cases = new ArrayList<>();
    Path work = Files.createTempDirectory("cellar-bench-offheap-");
    try {
      Path database = work.resolve("db");
      progress.printf(
          "cellar bench offheap: loading %,d rows of %d bytes%n",
          settings.rows(), PeTableLoader.VALUE_SIZE);
      long rows =
          settings.serveHost() == null
              ? PeTableLoader.load(database, settings.rows(), settings.seed(), progress)
              : PeTableLoader.loadThroughServer(
                  database, settings.rows(), settings.seed(), settings.serveHost(), progress);
      progress.printf(
          "cellar bench offheap: loading %,d YCSB records of 10 fields of 100" + " bytes%n",
          settings.ycsbRecords());
      long records = loadYcsb(database, settings, progress);
      List<Phase> phases = settings.phases();
      for (Deploy deploy : OffheapSettings.DEPLOYS) {
        long memory = settings.memory();
        DeploySizing sizing = new DeploySizing(deploy, memory);
        progress.printf(
            "cellar bench offheap: %s: heap %s (%s), L1 %s, L2 %s; %d phases%n",
            deploy.title(),
            Allotment.mib(sizing.heap()),
            sizing.heapHow(),
            Allotment.mib(sizing.l1()),
            Allotment.mib(sizing.l2()),
            phases.size());
        Properties request = new Properties();
        request.setProperty("database", database.toString());
        request.setProperty("table", PeTableLoader.TABLE);
        request.setProperty("rows", Long.toString(rows));
        request.setProperty("ycsbRecords", Long.toString(records));
        request.setProperty("phases", Phase.join(phases));
        request.setProperty("durationMillis", Long.toString(settings.runMillis()));
        request.setProperty("runs", Integer.toString(settings.runs()));
        request.setProperty("sampleRate", "1.0");
        request.setProperty("warmByScan", "true");
        request.setProperty("seed", Long.toString(settings.seed()));
        deploy
            .config(memory, settings.tmpfs())
            .forEach((key, value) -> request.setProperty(ShowdownChild.CONFIG_PREFIX + key, value));
        OffheapSettings.WARM_EVERY_BLOCK.forEach(
            (key, value) -> request.setProperty(ShowdownChild.CONFIG_PREFIX + key, value));
        Properties result =
            settings.serveHost() != null
                ? ServedDeploy.measure(
                    deploy, memory, database, request, settings.serveHost(), progress)
                : ChildJvm.run(
                    deploy.title(),
                    ChildJvm.command(deploy.heapBytes(memory), deploy.directBytes(memory)),
                    request,
                    work,
                    progress);
        for (Phase phase : phases) {
          cases.add(new OffheapCase(deploy, phase, PhaseFigures.of(result, phase.key() + ".")));
        }
      }
    } finally {
      Directories.deleteTree(work);
    }
    return cases;
  }

  /**
   * Loads the YCSB table, in this JVM or through a server of the database started for the load;
   * returns the records inserted.
   */
  private static long loadYcsb(Path database, OffheapSettings settings, PrintStream progress)
      throws IOException {
    if (settings.serveHost() == null) {
      try (Cellar cellar = Cellar.open(database, CellarConfig.defaults())) {
        return YcsbRecords.load(cellar, settings.ycsbRecords(), progress);
      }
    }
    try (ServerProcess server =
            ServerProcess.start(
                "the YCSB load",
                database,
                LOADER_HEAP,
                LOADER_HEAP / 2,
                Map.of(),
                settings.serveHost(),
                progress);
        CellarClient client = CellarClient.connect(server.address())) {
      return YcsbRecords.load(client, settings.ycsbRecords(), progress);
    }
  }
}
