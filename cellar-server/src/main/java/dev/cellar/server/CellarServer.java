package dev.cellar.server;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.DirectoryLockedException;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.MetaTable;
import dev.cellar.server.catalog.ServerIdentity;
import dev.cellar.server.discovery.ZooKeeperDiscovery;
import dev.cellar.server.rpc.IpcSource;
import dev.cellar.server.rpc.MethodCallCounts;
import dev.cellar.server.rpc.RpcDispatch;
import dev.cellar.server.rpc.RpcMetrics;
import dev.cellar.server.rpc.RpcServer;
import dev.cellar.server.service.ClientService;
import dev.cellar.server.service.ClusterStatusReport;
import dev.cellar.server.service.ExportEndpoint;
import dev.cellar.server.service.MasterService;
import dev.cellar.server.service.RegionAdminService;
import dev.cellar.server.service.RegionLoads;
import dev.cellar.server.service.RegistryService;
import dev.cellar.spi.Engine;
import dev.cellar.spi.EngineAccess;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code cellar serve}: an embedded {@link Cellar} behind a server that HBase 2.x's own client
 * talks to. It is, at once, the cluster's registry (ClientMetaService), its master (MasterService,
 * with the cluster's status) and its one region server (ClientService, and AdminService for
 * flushes, compactions and region loads) holding hbase:meta and one region per enabled table.
 *
 * <p><b>Directory.</b> The database's files, plus {@code server/}: the lock, the cluster id and the
 * catalog of HBase schemas ({@link Catalog}). On a local disk or, by URI, on another file system
 * (HDFS) through the same {@link Storage} as the database; the server's lock is {@code
 * server/LOCK}, held as the database's own locks are.
 *
 * <p><b>Discovery.</b> With {@code hbase.zookeeper.quorum} set, or an embedded ZooKeeper ({@link
 * ZooKeeperOptions}), the server publishes itself in ZooKeeper as HBase's master and region server
 * do, for clients on HBase's default ZooKeeper registry ({@link ZooKeeperDiscovery}); it does so
 * last at start, once it serves, and withdraws first at close.
 *
 * <p><b>Threads.</b> Netty's acceptor and event loops ({@link RpcServer}), the handler pool {@value
 * #HANDLER_THREAD}-N with its bounded queue, the scanner lease sweeper, and the database's own
 * background threads; with discovery, ZooKeeper's client threads (and an embedded ZooKeeper's).
 * {@link #close()} withdraws the server from ZooKeeper, stops accepting, closes connections, lets
 * running calls finish, closes open scanners, then flushes and closes the database and drops the
 * lock.
 *
 * <p><b>Metrics.</b> Beside the database's own beans, the server publishes HBase's IPC bean ({@link
 * IpcSource}, with the admin calls by method) and counts its requests into the database's {@code
 * sub=Server} bean ({@code totalRequestCount}, {@code rpcGetRequestCount}, ..., {@code ScanTime},
 * {@code ScanSize}); it tells the info server its RPC port, for the web UI's summary.
 */
public final class CellarServer implements AutoCloseable {

  static final String HANDLER_THREAD = "cellar-rpc-handler";
  private static final Logger LOG = LoggerFactory.getLogger(CellarServer.class);

  private final ServerOptions options;
  private final StorageLocation location;
  private final Closeable lock;
  private final Cellar cellar;
  private final ThreadPoolExecutor handlers;
  private final ClientService client;
  private final RpcServer rpc;
  private final ServerIdentity identity;
  private final Catalog catalog;
  private final Optional<ZooKeeperDiscovery> discovery;

  private CellarServer(
      ServerOptions options,
      StorageLocation location,
      Closeable lock,
      Cellar cellar,
      ThreadPoolExecutor handlers,
      ClientService client,
      RpcServer rpc,
      ServerIdentity identity,
      Catalog catalog,
      Optional<ZooKeeperDiscovery> discovery) {
    this.options = options;
    this.location = location;
    this.lock = lock;
    this.cellar = cellar;
    this.handlers = handlers;
    this.client = client;
    this.rpc = rpc;
    this.identity = identity;
    this.catalog = catalog;
    this.discovery = discovery;
  }

  /**
   * Opens the database in the options' directory and starts serving.
   *
   * @throws IOException naming the directory or the address when either is taken or unusable
   */
  public static CellarServer start(ServerOptions options, CellarConfig config) throws IOException {
    StorageLocation location =
        StorageLocation.resolve(options.location(), EngineAccess.settings(config));
    Storage storage = location.storage();
    Path serverDir = location.directory().resolve("server");
    Closeable lock;
    try {
      storage.createDirectories(serverDir);
      lock = storage.lock(serverDir)::close;
    } catch (DirectoryLockedException e) {
      closeQuietly(location, e);
      throw new IOException(
          "directory "
              + options.location()
              + " is in use by another Cellar"
              + " server: "
              + e.getMessage(),
          e);
    } catch (IOException | RuntimeException e) {
      closeQuietly(location, e);
      throw e;
    }
    Cellar cellar = null;
    ThreadPoolExecutor handlers = null;
    ClientService client = null;
    RpcServer rpc = null;
    try {
      int port = options.port() == 0 ? freePort(options.bindAddress()) : options.port();
      String clusterId = clusterId(storage, serverDir.resolve("cluster-id"));
      cellar = Cellar.open(options.location(), config);
      Catalog catalog = Catalog.open(cellar, storage, serverDir);
      ServerIdentity identity =
          new ServerIdentity(options.advertisedHost(), port, System.currentTimeMillis(), clusterId);
      MetaTable meta = new MetaTable(catalog, identity);
      client = new ClientService(cellar, catalog, meta, options.scanLimits(), options.inlineGets());
      handlers = handlerPool(options);
      RegionLoads regionLoads =
          new RegionLoads(cellar, catalog, client::metaRowsRead, location.isLocal());
      RpcMetrics rpcMetrics = new RpcMetrics();
      MethodCallCounts adminCalls = new MethodCallCounts();
      RpcDispatch dispatch =
          new RpcDispatch(
              Map.of(
                  RegistryService.NAME, RegistryService.create(identity),
                  MasterService.NAME,
                      MasterService.create(
                          catalog,
                          new ExportEndpoint(cellar, catalog, config),
                          new ClusterStatusReport(cellar, catalog, identity, regionLoads),
                          adminCalls),
                  ClientService.NAME, client.service(),
                  RegionAdminService.NAME, RegionAdminService.create(cellar, catalog, regionLoads)),
              handlers,
              clusterId,
              rpcMetrics);
      rpc =
          RpcServer.start(
              new InetSocketAddress(options.bindAddress(), port),
              options.ioThreads(),
              options.maxRequestSize(),
              dispatch);
      Engine engine = EngineAccess.engine(cellar);
      engine.metrics().servedOverRpc();
      engine.publish(new IpcSource(rpcMetrics, handlers, rpc::openConnections, adminCalls));
      engine.servesRpcOn(port);
      Optional<ZooKeeperDiscovery> discovery =
          ZooKeeperDiscovery.start(
              options.zooKeeper(),
              options.bindAddress(),
              location.isLocal()
                  ? Optional.of(location.directory().resolve("server").resolve("zookeeper"))
                  : Optional.empty(),
              identity,
              cellar.infoServerAddress().map(InetSocketAddress::getPort).orElse(0));
      LOG.info(
          "cellar serve: {} on {}:{} ({}), advertised as {}, cluster id {}",
          options.location(),
          options.bindAddress(),
          port,
          rpc.usesEpoll() ? "epoll" : "nio",
          identity.hostAndPort(),
          clusterId);
      if (!rpc.address().getAddress().isLoopbackAddress()) {
        LOG.warn(
            "cellar serve: listening on {} with no authentication and no TLS: whoever reaches this"
                + " port can read, write and drop every table",
            rpc.address());
      }
      discovery.ifPresent(
          published ->
              LOG.info("cellar serve: published in ZooKeeper at {}", published.connectString()));
      return new CellarServer(
          options, location, lock, cellar, handlers, client, rpc, identity, catalog, discovery);
    } catch (IOException | RuntimeException e) {
      if (rpc != null) {
        closeQuietly(rpc, e);
      }
      if (handlers != null) {
        handlers.shutdownNow();
      }
      if (client != null) {
        client.close();
      }
      if (cellar != null) {
        try {
          cellar.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      closeQuietly(lock, e);
      closeQuietly(location, e);
      throw e;
    }
  }

  private static void closeQuietly(AutoCloseable closeable, Exception cause) {
    try {
      closeable.close();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
  }

  private static ThreadPoolExecutor handlerPool(ServerOptions options) {
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            options.handlers(),
            options.handlers(),
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(options.callQueueLength()),
            Thread.ofPlatform().name(HANDLER_THREAD + "-", 0).daemon().factory(),
            new ThreadPoolExecutor.AbortPolicy());
    return pool;
  }

  private static int freePort(String bindAddress) throws IOException {
    try (ServerSocket socket =
        new ServerSocket(0, 1, java.net.InetAddress.getByName(bindAddress))) {
      return socket.getLocalPort();
    }
  }

  /** The cluster id kept in {@code file}, made (a random UUID) the first time. */
  private static String clusterId(Storage storage, Path file) throws IOException {
    if (storage.isFile(file)) {
      String id = new String(storage.readAllBytes(file), StandardCharsets.UTF_8).trim();
      if (!id.isEmpty()) {
        return id;
      }
    }
    String id = UUID.randomUUID().toString();
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    byte[] bytes = id.getBytes(StandardCharsets.UTF_8);
    storage.deleteIfExists(temporary);
    try (AppendOnlyFile out = storage.create(temporary)) {
      out.append(bytes, 0, bytes.length);
      out.sync();
    }
    storage.rename(temporary, file);
    storage.syncDirectory(file.getParent());
    return id;
  }

  /** The address the server listens on. */
  public InetSocketAddress address() {
    return rpc.address();
  }

  /** The server's name as clients see it. */
  ServerIdentity identity() {
    return identity;
  }

  /** HBase's {@code host:port} clients reach the server at. */
  public String hostAndPort() {
    return identity.hostAndPort();
  }

  /** The cluster id the server gives its clients, kept across restarts. */
  public String clusterId() {
    return identity.clusterId();
  }

  public ServerOptions options() {
    return options;
  }

  /** The database served (for tests and tools in the same process). */
  public Cellar database() {
    return cellar;
  }

  /** The tables as clients see them. */
  Catalog catalog() {
    return catalog;
  }

  /** The number of scanners open. */
  public int openScanners() {
    return client.openScanners();
  }

  /** The number of client connections open. */
  public int openConnections() {
    return rpc.openConnections();
  }

  /**
   * The ZooKeeper quorum the server is published in ({@code host:port,...}), when it is: with an
   * embedded ZooKeeper, that server's address.
   */
  public Optional<String> zooKeeperQuorum() {
    return discovery.map(ZooKeeperDiscovery::connectString);
  }

  @Override
  public void close() throws IOException {
    discovery.ifPresent(ZooKeeperDiscovery::close);
    rpc.close();
    handlers.shutdown();
    try {
      if (!handlers.awaitTermination(30, TimeUnit.SECONDS)) {
        handlers.shutdownNow();
      }
    } catch (InterruptedException e) {
      handlers.shutdownNow();
      Thread.currentThread().interrupt();
    }
    client.close();
    try {
      cellar.close();
    } finally {
      try {
        lock.close();
      } finally {
        location.close();
      }
    }
    LOG.info("cellar serve: {} closed", options.location());
  }
}
