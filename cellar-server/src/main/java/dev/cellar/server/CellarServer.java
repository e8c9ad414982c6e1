package dev.cellar.server;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.MetaTable;
import dev.cellar.server.catalog.ServerIdentity;
import dev.cellar.server.rpc.RpcDispatch;
import dev.cellar.server.rpc.RpcServer;
import dev.cellar.server.service.ClientService;
import dev.cellar.server.service.MasterService;
import dev.cellar.server.service.RegionAdminService;
import dev.cellar.server.service.RegistryService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code cellar serve}: an embedded {@link Cellar} behind a server that HBase 2.x's own client
 * talks to. It is, at once, the cluster's registry (ClientMetaService), its master
 * (MasterService) and its one region server (ClientService, and AdminService for flushes and
 * compactions) holding hbase:meta and one region per table.
 *
 * <p><b>Directory.</b> The database's files, plus {@code server/}: the lock, the cluster id and
 * the catalog of HBase schemas ({@link Catalog}).
 *
 * <p><b>Threads.</b> Netty's acceptor and event loops ({@link RpcServer}), the handler pool
 * {@value #HANDLER_THREAD}-N with its bounded queue, the scanner lease sweeper, and the database's
 * own background threads. {@link #close()} stops accepting, closes connections, lets running calls
 * finish, closes open scanners, then flushes and closes the database and drops the lock.
 */
public final class CellarServer implements AutoCloseable {

  static final String HANDLER_THREAD = "cellar-rpc-handler";
  private static final Logger LOG = LoggerFactory.getLogger(CellarServer.class);

  private final ServerOptions options;
  private final DirectoryLock lock;
  private final Cellar cellar;
  private final ThreadPoolExecutor handlers;
  private final ClientService client;
  private final RpcServer rpc;
  private final ServerIdentity identity;
  private final Catalog catalog;

  private CellarServer(ServerOptions options, DirectoryLock lock, Cellar cellar,
      ThreadPoolExecutor handlers, ClientService client, RpcServer rpc,
      ServerIdentity identity, Catalog catalog) {
    this.options = options;
    this.lock = lock;
    this.cellar = cellar;
    this.handlers = handlers;
    this.client = client;
    this.rpc = rpc;
    this.identity = identity;
    this.catalog = catalog;
  }

  /**
   * Opens the database in the options' directory and starts serving.
   *
   * @throws IOException naming the directory or the address when either is taken or unusable
   */
  public static CellarServer start(ServerOptions options, CellarConfig config)
      throws IOException {
    Path serverDir = options.directory().resolve("server");
    Files.createDirectories(serverDir);
    DirectoryLock lock = DirectoryLock.acquire(options.directory(), serverDir.resolve("lock"));
    Cellar cellar = null;
    ThreadPoolExecutor handlers = null;
    ClientService client = null;
    try {
      int port = options.port() == 0 ? freePort(options.bindAddress()) : options.port();
      String clusterId = clusterId(serverDir.resolve("cluster-id"));
      cellar = Cellar.open(options.directory(), config);
      Catalog catalog = Catalog.open(cellar, serverDir.resolve("tables"));
      ServerIdentity identity = new ServerIdentity(options.advertisedHost(), port,
          System.currentTimeMillis(), clusterId);
      MetaTable meta = new MetaTable(catalog, identity);
      client = new ClientService(cellar, catalog, meta, options.scannerLeaseMillis(),
          options.inlineGets());
      handlers = handlerPool(options);
      RpcDispatch dispatch = new RpcDispatch(Map.of(
          RegistryService.NAME, RegistryService.create(identity),
          MasterService.NAME, MasterService.create(catalog),
          ClientService.NAME, client.service(),
          RegionAdminService.NAME, RegionAdminService.create(cellar, catalog)), handlers,
          clusterId);
      RpcServer rpc = RpcServer.start(new InetSocketAddress(options.bindAddress(), port),
          options.ioThreads(), options.maxRequestSize(), dispatch);
      LOG.info("cellar serve: {} on {}:{} ({}), advertised as {}, cluster id {}",
          options.directory(), options.bindAddress(), port, rpc.usesEpoll() ? "epoll" : "nio",
          identity.hostAndPort(), clusterId);
      return new CellarServer(options, lock, cellar, handlers, client, rpc, identity,
          catalog);
    } catch (IOException | RuntimeException e) {
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
      lock.close();
      throw e;
    }
  }

  private static ThreadPoolExecutor handlerPool(ServerOptions options) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(options.handlers(), options.handlers(),
        60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(options.callQueueLength()),
        Thread.ofPlatform().name(HANDLER_THREAD + "-", 0).daemon().factory(),
        new ThreadPoolExecutor.AbortPolicy());
    return pool;
  }

  private static int freePort(String bindAddress) throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1,
        java.net.InetAddress.getByName(bindAddress))) {
      return socket.getLocalPort();
    }
  }

  /** The cluster id kept in {@code file}, made (a random UUID) the first time. */
  private static String clusterId(Path file) throws IOException {
    if (Files.exists(file)) {
      String id = Files.readString(file, StandardCharsets.UTF_8).trim();
      if (!id.isEmpty()) {
        return id;
      }
    }
    String id = UUID.randomUUID().toString();
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temporary, id, StandardCharsets.UTF_8);
    Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return id;
  }

  /** The address the server listens on. */
  public InetSocketAddress address() {
    return rpc.address();
  }

  /** The server's name as clients see it. */
  public ServerIdentity identity() {
    return identity;
  }

  public ServerOptions options() {
    return options;
  }

  /** The database served (for tests and tools in the same process). */
  public Cellar database() {
    return cellar;
  }

  /** The tables as clients see them. */
  public Catalog catalog() {
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

  @Override
  public void close() throws IOException {
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
      lock.close();
    }
    LOG.info("cellar serve: {} closed", options.directory());
  }
}
