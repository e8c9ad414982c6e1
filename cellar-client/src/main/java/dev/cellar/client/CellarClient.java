package dev.cellar.client;

import dev.cellar.Admin;
import dev.cellar.Database;
import dev.cellar.Table;
import dev.cellar.client.rpc.RpcClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A connection to {@code cellar serve} offering the embedded API: {@link #table} gives a {@link
 * Table} and {@link #admin()} an {@link Admin} that behave as an embedded {@code Cellar}'s, over
 * HBase 2.x's RPC protocol. Code written against {@link Database} runs against a server by
 * replacing {@code Cellar.open(directory, config)} with {@code CellarClient.connect("host:port")}.
 *
 * <pre>{@code
 * try (Database db = CellarClient.connect("localhost:16020")) {
 *   Table table = db.table("t");
 *   table.put(new Put(row).addColumn(family, qualifier, value));
 *   try (Result result = table.get(new Get(row))) { ... }
 * }
 * }</pre>
 *
 * <p><b>Connections.</b> One TCP connection per service of the server (ClientService for tables,
 * MasterService for table administration, AdminService for flushes and compactions), opened on
 * first use and shared by every thread, with any number of calls in flight on each. A lost
 * connection is opened again by the next call; calls in flight on it fail and are retried.
 *
 * <p><b>Memory.</b> Answers are read into Netty's pooled buffers, and results keep their cells
 * there, decoded in place, until closed: close results as embedded. {@link #close()} closes the
 * connections and stops the client's I/O threads; results still open stay readable.
 *
 * <p>Thread-safe.
 */
public final class CellarClient implements Database {

  private final RpcClient rpc;
  private final ClientSettings settings;
  private final RegionLocator locator;
  private final Retrier retrier;
  private final Calls calls;
  private final RemoteAdmin admin;
  private final Map<String, RemoteTable> tables = new ConcurrentHashMap<>();

  private CellarClient(RpcClient rpc, ClientSettings settings) {
    this.rpc = rpc;
    this.settings = settings;
    this.locator = new RegionLocator(rpc, settings);
    this.retrier = new Retrier(settings, locator);
    this.calls = new Calls(rpc, settings);
    this.admin = new RemoteAdmin(rpc, settings, retrier, locator);
  }

  /** Point-in-time exports made by the server ({@link RemoteExport}). */
  public RemoteExport exports() {
    return new RemoteExport(rpc, settings);
  }

  /** A client of the server at {@code hostAndPort} with HBase's default settings. */
  public static CellarClient connect(String hostAndPort) {
    return connect(hostAndPort, ClientSettings.defaults());
  }

  /**
   * A client of the server at {@code hostAndPort} ({@code host:port}); connects on first use.
   *
   * @throws IllegalArgumentException if the address is not {@code host:port}
   */
  public static CellarClient connect(String hostAndPort, ClientSettings settings) {
    return new CellarClient(
        new RpcClient(address(hostAndPort), settings.ioThreads(), settings.connectTimeoutMillis()),
        settings);
  }

  static InetSocketAddress address(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostAndPort.length() - 1) {
      throw new IllegalArgumentException("server address '" + hostAndPort + "' is not host:port");
    }
    String host = hostAndPort.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(hostAndPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "server address '"
              + hostAndPort
              + "' has port '"
              + hostAndPort.substring(colon + 1)
              + "', not a number");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "server address '" + hostAndPort + "' has port " + port + ", outside 1..65535");
    }
    return new InetSocketAddress(host, port);
  }

  @Override
  public RemoteAdmin admin() {
    return admin;
  }

  /**
   * The table named {@code name}, located on the server (the location is cached until a request
   * finds it stale, or the table is dropped through this client).
   *
   * @throws dev.cellar.TableNotFoundException if the server has no such table
   * @throws UncheckedIOException if the server cannot be reached
   */
  @Override
  public Table table(String name) {
    try {
      retrier.run("locating table " + name, name, () -> locator.regions(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tables.computeIfAbsent(name, n -> new RemoteTable(n, calls, retrier, locator));
  }

  /** A writer that batches the mutations of {@code table} (see {@link BufferedMutator}). */
  public BufferedMutator bufferedMutator(String table) {
    return new BufferedMutator((RemoteTable) table(table), settings.writeBufferSize());
  }

  Calls calls() {
    return calls;
  }

  RegionLocator locator() {
    return locator;
  }

  public ClientSettings settings() {
    return settings;
  }

  /** The number of calls sent and not yet answered. */
  public int callsInFlight() {
    return rpc.pendingCalls();
  }

  @Override
  public void close() {
    rpc.close();
  }

  @Override
  public String toString() {
    return "CellarClient[" + rpc.address() + "]";
  }
}
