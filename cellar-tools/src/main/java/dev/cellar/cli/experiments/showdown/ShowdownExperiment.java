package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.experiments.Allotment;
import dev.cellar.cli.experiments.Directories;
import dev.cellar.cli.experiments.TierHitRatios;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Runs the BlockCache showdown: for each database:RAM ratio, {@link PeTableLoader} loads a database
 * of that many times the memory allotment, and each deploy measures it in a JVM of its own, one
 * after the other, so a deploy's heap, GC and cache are its own: embedded ({@link ShowdownChild}),
 * or through the network ({@link ServedDeploy}: a {@code cellar serve} per deploy, loaded and read
 * through Cellar's client). The database is deleted after its ratio; a file engine's cache file
 * after its deploy.
 */
public final class ShowdownExperiment {

  private ShowdownExperiment() {}

  public static List<ShowdownCase> run(ShowdownSettings settings, PrintStream progress)
      throws IOException {
    List<ShowdownCase> cases = new ArrayList<>();
    Path work = Files.createTempDirectory("cellar-bench-showdown-");
    try {
      for (double ratio : settings.ratios()) {
        Path database = work.resolve("db-" + ratio);
        long rows = load(settings, ratio, database, progress);
        for (Deploy deploy : settings.deploys()) {
          DeploySizing sizing = new DeploySizing(deploy, settings.memory());
          progress.printf(
              "cellar bench showdown: ratio %s, %s: heap %s (%s), L1 %s, L2 %s%n",
              ratio,
              deploy.title(),
              Allotment.mib(sizing.heap()),
              sizing.heapHow(),
              Allotment.mib(sizing.l1()),
              Allotment.mib(sizing.l2()));
          Properties result = measure(settings, deploy, ratio, rows, database, work, progress);
          ShowdownCase c = toCase(deploy, ratio, rows, result, phase(settings).key() + ".");
          progress.printf(
              "cellar bench showdown:   p99 %.0f us, p50 %.0f us, %.0f ops/s, GC %d ms,"
                  + " hit ratios %s%n",
              c.p99Micros(),
              c.p50Micros(),
              c.opsPerSecond(),
              c.gcMillis(),
              c.hitRatios().describe());
          cases.add(c);
        }
        Directories.deleteTree(database);
      }
    } finally {
      Directories.deleteTree(work);
    }
    return cases;
  }

  private static long load(
      ShowdownSettings settings, double ratio, Path database, PrintStream progress)
      throws IOException {
    progress.printf(
        "cellar bench showdown: ratio %s: loading %,d rows of %d bytes%n",
        ratio, settings.rows(ratio), PeTableLoader.VALUE_SIZE);
    return settings.serveHost() == null
        ? PeTableLoader.load(database, settings.rows(ratio), settings.seed(), progress)
        : PeTableLoader.loadThroughServer(
            database, settings.rows(ratio), settings.seed(), settings.serveHost(), progress);
  }

  private static Properties measure(
      ShowdownSettings settings,
      Deploy deploy,
      double ratio,
      long rows,
      Path database,
      Path work,
      PrintStream progress)
      throws IOException {
    long memory = settings.memory();
    Properties request = new Properties();
    request.setProperty("database", database.toString());
    request.setProperty("table", PeTableLoader.TABLE);
    request.setProperty("rows", Long.toString(rows));
    request.setProperty("phases", phase(settings).key());
    request.setProperty("durationMillis", Long.toString(settings.runMillis()));
    request.setProperty("runs", Integer.toString(settings.runs()));
    request.setProperty("sampleRate", Double.toString(settings.sampleRate()));
    request.setProperty("warmByScan", Boolean.toString(ratio <= 0.5));
    request.setProperty("seed", Long.toString(settings.seed()));
    Path tmpfs = Files.createTempDirectory(settings.tmpfs(), "cellar-showdown-");
    try {
      deploy
          .config(memory, tmpfs)
          .forEach((key, value) -> request.setProperty(ShowdownChild.CONFIG_PREFIX + key, value));
      if (settings.serveHost() != null) {
        return ServedDeploy.measure(
            deploy, memory, database, request, settings.serveHost(), progress);
      }
      List<String> command = ChildJvm.command(deploy.heapBytes(memory), deploy.directBytes(memory));
      return ChildJvm.run(deploy.title(), command, request, work, progress);
    } finally {
      Directories.deleteTree(tmpfs);
    }
  }

  private static Phase phase(ShowdownSettings settings) {
    return new Phase(ReadWorkload.RANDOM_READ, settings.clients());
  }

  private static ShowdownCase toCase(
      Deploy deploy, double ratio, long rows, Properties r, String prefix) {
    PhaseFigures f = PhaseFigures.of(r, prefix);
    return new ShowdownCase(
        deploy,
        ratio,
        rows,
        f.opsPerSecond(),
        f.p50Micros(),
        f.p99Micros(),
        f.p999Micros(),
        f.gcMillis(),
        TierHitRatios.of(f.hitRatios()),
        f.loadAverage());
  }
}
