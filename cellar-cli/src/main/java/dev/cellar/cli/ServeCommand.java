package dev.cellar.cli;

import dev.cellar.CellarConfig;
import dev.cellar.observe.http.InfoServerConfig;
import dev.cellar.server.CellarServer;
import dev.cellar.server.ServerOptions;
import dev.cellar.server.ZooKeeperOptions;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cellar serve}: serves a database directory to HBase 2.x clients (HBase's own Java client,
 * PerformanceEvaluation, YCSB's HBase binding) over HBase's RPC protocol. Runs until SIGTERM or
 * SIGINT, then closes cleanly (running calls finish, the database is flushed). Exit code 0 after a
 * clean stop, 1 when the server cannot start (the message says why: port or directory taken, bad
 * configuration).
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Serve a database directory to HBase 2.x clients.",
      "Speaks HBase's RPC protocol and stops cleanly on SIGTERM or Ctrl-C. The database is"
          + " --dir DIR, else hbase.rootdir (from --conf or -D), made if missing.",
      "Clients set",
      "  hbase.client.registry.impl=",
      "    org.apache.hadoop.hbase.client.RpcConnectionRegistry",
      "  hbase.client.bootstrap.servers=HOST:PORT",
      "or, on HBase's default ZooKeeper discovery (the server publishes itself in the",
      "ZooKeeper of hbase.zookeeper.quorum, or runs its own with --zookeeper),",
      "  hbase.zookeeper.quorum=HOST",
      "  hbase.zookeeper.property.clientPort=PORT",
      "Example: cellar serve --dir /var/lib/cellar --zookeeper"
    },
    exitCodeList =
        "1:the server could not start (one line on standard error says why: port or"
            + " directory taken, bad configuration)")
final class ServeCommand implements Callable<Integer> {

  @Mixin DatabaseOptions database;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "RPC port (default 16020, or" + " hbase.regionserver.port)")
  Integer port;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      description = "address to listen on (default" + " 127.0.0.1; 0.0.0.0 for every interface)")
  String bind;

  @Option(
      names = "--hostname",
      paramLabel = "HOST",
      description = "host name advertised to" + " clients (default: the bind address)")
  String hostname;

  @Option(
      names = "--info-port",
      paramLabel = "PORT",
      description =
          "HTTP info port: /jmx,"
              + " /prometheus and the web UI (default 16030, or hbase.regionserver.info.port; -1 for none,"
              + " 0 for any free port)")
  Integer infoPort;

  @Option(
      names = "--zookeeper",
      description =
          "run a ZooKeeper server in process (on the bind address, port"
              + " hbase.zookeeper.property.clientPort, default 2181) and publish the server in it"
              + " for HBase clients on ZooKeeper discovery (cellar.server.zookeeper.embedded)")
  boolean zooKeeper;

  @Override
  public Integer call() throws IOException, InterruptedException {
    String location = database.location(null);
    CellarConfig config = database.config();
    if (port != null) {
      config = config.with(ServerOptions.PORT, port.toString());
    }
    if (bind != null) {
      config = config.with(ServerOptions.BIND_ADDRESS, bind);
    }
    if (hostname != null) {
      config = config.with(ServerOptions.HOSTNAME, hostname);
    }
    if (zooKeeper) {
      config = config.with(ZooKeeperOptions.EMBEDDED, "true");
    }
    if (infoPort != null) {
      config = config.with(InfoServerConfig.PORT_KEY, infoPort.toString());
    } else if (config.get(InfoServerConfig.PORT_KEY) == null) {
      config =
          config.with(InfoServerConfig.PORT_KEY, String.valueOf(InfoServerConfig.DEFAULT_PORT));
    }
    CellarServer server;
    try {
      server = CellarServer.start(ServerOptions.from(location, config), config);
    } catch (IOException e) {
      throw new CommandFailure(FileFailures.describe(e));
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(e.getMessage());
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            Thread.ofPlatform()
                .name("cellar-serve-stop")
                .unstarted(
                    () -> {
                      try {
                        server.close();
                      } catch (IOException e) {
                        System.err.println("cellar serve: closing failed: " + e.getMessage());
                      } finally {
                        stopped.countDown();
                      }
                    }));
    System.out.printf(
        "cellar serve: %s on %s (advertised %s); clients set%n"
            + "  hbase.client.registry.impl=org.apache.hadoop.hbase.client.RpcConnectionRegistry%n"
            + "  hbase.client.bootstrap.servers=%s%n",
        location, server.address(), server.hostAndPort(), server.hostAndPort());
    server
        .zooKeeperQuorum()
        .ifPresent(
            quorum ->
                System.out.printf(
                    "  or, on ZooKeeper discovery (published under %s)%n"
                        + "  hbase.zookeeper.quorum=%s%n",
                    server.options().zooKeeper().parent(), quorum));
    server
        .database()
        .infoServerAddress()
        .ifPresent(
            address ->
                System.out.printf(
                    "  info server: http://%s:%d/ (/jmx, /prometheus)%n",
                    address.getHostString(), address.getPort()));
    if (!server.address().getAddress().isLoopbackAddress()) {
      System.err.printf(
          "cellar serve: WARNING: listening on %s with no authentication and no TLS: whoever"
              + " reaches this port can read, write and drop every table%n",
          server.address());
    }
    System.out.flush();
    stopped.await();
    return ExitCodes.DONE;
  }
}
