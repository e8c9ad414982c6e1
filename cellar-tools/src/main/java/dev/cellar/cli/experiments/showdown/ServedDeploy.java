package dev.cellar.cli.experiments.showdown;

import dev.cellar.cli.ServerProcess;
import dev.cellar.cli.experiments.ServerJmx;
import dev.cellar.cli.pe.CacheFigures;
import dev.cellar.cli.pe.GcFigures;
import dev.cellar.client.CellarClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Properties;

/**
 * One deploy measured through the network, as the seeds measured a region server: a {@code cellar
 * serve} of its own ({@link ServerProcess}) on the loaded database with the deploy's heap, direct
 * memory and cache settings, and the clients in this JVM running {@link DeployRun} through Cellar's
 * client. The block cache and GC figures are the server's, read from its {@code /jmx} ({@link
 * ServerJmx}); latencies and throughput are the clients'. The server is stopped before {@link
 * #measure} returns, so the next deploy opens the same directory.
 */
public final class ServedDeploy {

  private ServedDeploy() {}

  /**
   * Serves {@code database} as {@code deploy} sized for {@code memory} bytes on a free port of
   * {@code bind}, runs {@code request} against it and returns what {@link DeployRun} measured.
   */
  public static Properties measure(
      Deploy deploy,
      long memory,
      Path database,
      Properties request,
      String bind,
      PrintStream progress)
      throws IOException {
    try (ServerProcess server =
            ServerProcess.start(
                deploy.title(),
                database,
                deploy.heapBytes(memory),
                deploy.directBytes(memory),
                ShowdownChild.config(request),
                bind,
                progress);
        CellarClient client = CellarClient.connect(server.address())) {
      ServerJmx jmx = new ServerJmx(server.infoAddress(), deploy.l2Bytes(memory) > 0);
      progress.printf(
          "cellar bench: %s serves at %s (info %s); clients in this JVM%n",
          deploy.title(), server.address(), server.infoAddress());
      return DeployRun.run(
          request,
          client,
          new DeployRun.Engine() {
            @Override
            public CacheFigures cache() throws IOException {
              return jmx.cache();
            }

            @Override
            public GcFigures gc() throws IOException {
              return jmx.gc();
            }
          },
          progress);
    }
  }
}
