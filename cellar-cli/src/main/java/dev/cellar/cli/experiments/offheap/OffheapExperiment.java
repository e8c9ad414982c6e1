package dev.cellar.cli.experiments.offheap;

import dev.cellar.cli.experiments.Directories;
import dev.cellar.cli.experiments.showdown.ChildJvm;
import dev.cellar.cli.experiments.showdown.Deploy;
import dev.cellar.cli.experiments.showdown.PeTableLoader;
import dev.cellar.cli.experiments.showdown.Phase;
import dev.cellar.cli.experiments.showdown.PhaseFigures;
import dev.cellar.cli.experiments.showdown.ServedDeploy;
import dev.cellar.cli.experiments.showdown.ShowdownChild;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Runs the off-heap experiment: PE's table loaded once (sized to fit either deploy's cache), then
 * the on-heap deploy (every block in the LRU L1, a large heap) and the off-heap one (data blocks
 * in an off-heap BucketCache, a small heap), each in a JVM of its own (embedded: {@link
 * ShowdownChild} through {@link ChildJvm}; through the network: a {@code cellar serve} per deploy,
 * {@link ServedDeploy}, the table loaded through the client too): warmed by a full caching scan, then randomRead, range scans of
 * 10,000 rows filtering every row out on the server, and the same returning one row in ten, at
 * each thread count. The database is deleted at the end.
 */
final class OffheapExperiment {

  private OffheapExperiment() {}

  static List<OffheapCase> run(OffheapSettings settings, PrintStream progress)
      throws IOException {
    List<OffheapCase> cases = new ArrayList<>();
    Path work = Files.createTempDirectory("cellar-bench-offheap-");
    try {
      Path database = work.resolve("db");
      progress.printf("cellar bench offheap: loading %,d rows of %d bytes%n", settings.rows(),
          PeTableLoader.VALUE_SIZE);
      long rows = settings.serveHost() == null
          ? PeTableLoader.load(database, settings.rows(), settings.seed(), progress)
          : PeTableLoader.loadThroughServer(database, settings.rows(), settings.seed(),
              settings.serveHost(), progress);
      List<Phase> phases = settings.phases();
      for (Deploy deploy : OffheapSettings.DEPLOYS) {
        long memory = settings.memory();
        progress.printf("cellar bench offheap: %s: heap %,d MiB, L1 %,d MiB, L2 %,d MiB; %d"
            + " phases%n", deploy.title(), deploy.heapBytes(memory) >> 20,
            deploy.l1Bytes(memory) >> 20, deploy.l2Bytes(memory) >> 20, phases.size());
        Properties request = new Properties();
        request.setProperty("database", database.toString());
        request.setProperty("table", PeTableLoader.TABLE);
        request.setProperty("rows", Long.toString(rows));
        request.setProperty("phases", Phase.join(phases));
        request.setProperty("durationMillis", Long.toString(settings.runMillis()));
        request.setProperty("runs", Integer.toString(settings.runs()));
        request.setProperty("sampleRate", "1.0");
        request.setProperty("warmByScan", "true");
        request.setProperty("seed", Long.toString(settings.seed()));
        deploy.config(memory, settings.tmpfs()).forEach((key, value) ->
            request.setProperty(ShowdownChild.CONFIG_PREFIX + key, value));
        OffheapSettings.WARM_EVERY_BLOCK.forEach((key, value) ->
            request.setProperty(ShowdownChild.CONFIG_PREFIX + key, value));
        Properties result = settings.serveHost() != null
            ? ServedDeploy.measure(deploy, memory, database, request, settings.serveHost(),
                progress)
            : ChildJvm.run(deploy.title(), ChildJvm.command(deploy.heapBytes(memory),
                deploy.directBytes(memory)), request, work, progress);
        for (Phase phase : phases) {
          cases.add(new OffheapCase(deploy, phase, PhaseFigures.of(result, phase.key() + ".")));
        }
      }
    } finally {
      Directories.deleteTree(work);
    }
    return cases;
  }
}
