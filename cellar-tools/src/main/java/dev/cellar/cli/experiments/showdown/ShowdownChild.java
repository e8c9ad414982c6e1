package dev.cellar.cli.experiments.showdown;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.cli.pe.GcFigures;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The measuring process of the showdown and off-heap experiments when they run embedded: one deploy
 * in its own JVM, started by {@link ChildJvm} with the deploy's heap and direct memory. Reads its
 * request (a properties file: the database, the table, every {@code config.}-prefixed configuration
 * key, and what {@link DeployRun} reads), opens the loaded database with the deploy's
 * configuration, runs {@link DeployRun} on it with its clients in this JVM and writes the result as
 * a properties file.
 *
 * <p>Exit codes: 0 done, 1 failed (one line on stderr says why).
 */
public final class ShowdownChild {

  public static final String CONFIG_PREFIX = "config.";

  private ShowdownChild() {}

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: ShowdownChild <request.properties> <result.properties>");
      System.exit(1);
    }
    try {
      run(Path.of(args[0]), Path.of(args[1]));
    } catch (IOException | RuntimeException e) {
      System.err.println("cellar bench, deploy JVM: " + e.getMessage());
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(Path requestFile, Path resultFile) throws IOException {
    Properties request = new Properties();
    try (Reader in = Files.newBufferedReader(requestFile)) {
      request.load(in);
    }
    Path database = Path.of(request.getProperty("database"));
    Properties result;
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults().withAll(config(request)))) {
      result =
          DeployRun.run(
              request,
              cellar,
              new DeployRun.Engine() {
                @Override
                public CacheFigures cache() {
                  return CacheFigures.of(EngineAccess.engine(cellar).blockCache());
                }

                @Override
                public GcFigures gc() {
                  return GcFigures.now();
                }
              },
              System.err);
    }
    try (Writer out = Files.newBufferedWriter(resultFile)) {
      result.store(out, "cellar bench: one deploy's last run of each phase");
    }
  }

  /** The request's {@code config.}-prefixed keys, without the prefix. */
  static Map<String, String> config(Properties request) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String key : request.stringPropertyNames()) {
      if (key.startsWith(CONFIG_PREFIX)) {
        settings.put(key.substring(CONFIG_PREFIX.length()), request.getProperty(key));
      }
    }
    return settings;
  }
}
