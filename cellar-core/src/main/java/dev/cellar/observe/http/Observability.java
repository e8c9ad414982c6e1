package dev.cellar.observe.http;

import dev.cellar.config.Settings;
import dev.cellar.observe.JmxRegistration;
import dev.cellar.observe.MetricSource;
import dev.cellar.observe.MetricSources;
import dev.cellar.observe.ObservedDatabase;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a database publishes while open: its metric sources on JMX (unless {@value #JMX_ENABLED_KEY}
 * is false) and, when configured, the info server; a server running over the database adds its own
 * sources with {@link #publish} and tells its RPC port with {@link #servesRpcOn}. {@link #close()}
 * takes both down.
 *
 * <p>Concurrency: the sources are a copy-on-write list, so /prometheus reads them while one is
 * published; the RPC port is an atomic the info server reads per request.
 */
public final class Observability implements AutoCloseable {

  /**
   * Whether the database records its operations at all (default true): false leaves every operation
   * figure at 0, for measuring what recording costs.
   */
  public static final String METRICS_ENABLED_KEY = "cellar.metrics.enabled";

  /** Whether an open database registers its MBeans (default true). */
  public static final String JMX_ENABLED_KEY = "cellar.metrics.jmx.enabled";

  private final JmxRegistration jmx;
  private final InfoServer info;
  private final List<MetricSource> sources;
  private final boolean jmxEnabled;
  private final AtomicInteger rpcPort;

  private Observability(
      JmxRegistration jmx,
      InfoServer info,
      List<MetricSource> sources,
      boolean jmxEnabled,
      AtomicInteger rpcPort) {
    this.jmx = jmx;
    this.info = info;
    this.sources = sources;
    this.jmxEnabled = jmxEnabled;
    this.rpcPort = rpcPort;
  }

  /**
   * Registers {@code database}'s sources and starts the info server if {@code settings} ask for one
   * ({@code defaultInfoPort} applies when the port key is unset).
   *
   * @throws IOException if the info server cannot listen (see {@link InfoServer#start})
   */
  public static Observability start(
      ObservedDatabase database, Settings settings, int defaultInfoPort) throws IOException {
    InfoServerConfig config = InfoServerConfig.from(settings, defaultInfoPort);
    List<MetricSource> sources = new CopyOnWriteArrayList<>(MetricSources.of(database));
    boolean jmxEnabled = settings.getBoolean(JMX_ENABLED_KEY, true);
    JmxRegistration jmx = JmxRegistration.register(jmxEnabled ? sources : List.of());
    AtomicInteger rpcPort = new AtomicInteger(-1);
    if (!config.enabled()) {
      return new Observability(jmx, null, sources, jmxEnabled, rpcPort);
    }
    try {
      return new Observability(
          jmx,
          InfoServer.start(config, database, sources, rpcPort::get),
          sources,
          jmxEnabled,
          rpcPort);
    } catch (IOException | RuntimeException e) {
      jmx.close();
      throw e;
    }
  }

  /**
   * Publishes {@code source} beside the database's own: on JMX (when enabled) and /prometheus,
   * until {@link #close()}.
   */
  public void publish(MetricSource source) {
    sources.add(source);
    if (jmxEnabled) {
      jmx.add(source);
    }
  }

  /** Records the port a server over the database answers RPCs on, for the UI's summary. */
  public void servesRpcOn(int port) {
    rpcPort.set(port);
  }

  /** The info server's address, if it runs. */
  public Optional<InetSocketAddress> infoAddress() {
    return info == null ? Optional.empty() : Optional.of(info.address());
  }

  /** The info server, if it runs. */
  public Optional<InfoServer> infoServer() {
    return Optional.ofNullable(info);
  }

  @Override
  public void close() {
    if (info != null) {
      info.close();
    }
    jmx.close();
  }
}
