package dev.cellar.observe.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cellar.config.BuildVersion;
import dev.cellar.observe.JmxJson;
import dev.cellar.observe.MetricSource;
import dev.cellar.observe.ObservedDatabase;
import dev.cellar.observe.PrometheusText;
import dev.cellar.observe.Sampler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP info server of a database, HBase's region server info port: {@code /jmx} (the JMX JSON
 * of HBase's servlet, {@link JmxJson}), {@code /prometheus} ({@link PrometheusText}), {@code /} the
 * web UI (a page and a script from this jar, with uPlot's chart library from its WebJar), and the
 * UI's data: {@code /api/samples} (the {@link Sampler}'s ring), {@code /api/tables} ({@link
 * TablesJson}) and {@code /api/server} (version, start, directory and ports, {@link ServerJson}).
 *
 * <p>The JDK's {@link HttpServer} serves it: an info port sees a few requests a second at most, so
 * a small blocking server with no dependencies beats a second Netty pipeline. Requests run on
 * {@value #THREADS} daemon threads {@value #THREAD}{@code -N}, so that a client slow to send its
 * request or read its answer holds one of them, not the page for everyone; each request reads the
 * metrics afresh.
 *
 * <p>Failure: a port already taken fails {@link #start} with the address and the key to change; a
 * request that fails answers 500 with a one-line message and the server goes on.
 */
public final class InfoServer implements AutoCloseable {

  static final String THREAD = "cellar-info-http";

  /** The threads requests run on. */
  static final int THREADS = 4;

  private static final Logger LOG = LoggerFactory.getLogger(InfoServer.class);
  private static final String WEBJARS = "/webjars/";
  private static final String WEBJAR_RESOURCES = "/META-INF/resources/webjars/";
  private static final String RESOURCES = "/dev/cellar/observe/http/";
  private static final Map<String, String> CONTENT_TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8");

  private final HttpServer server;
  private final ExecutorService executor;
  private final Sampler sampler;

  private InfoServer(HttpServer server, ExecutorService executor, Sampler sampler) {
    this.server = server;
    this.executor = executor;
    this.sampler = sampler;
  }

  /**
   * Starts serving {@code database}'s {@code sources} as {@code config} says; {@code rpcPort}
   * tells, when asked, the port a server over the database answers RPCs on, or -1 for none.
   *
   * @throws IOException naming the address and {@link InfoServerConfig#PORT_KEY} when the port
   *     cannot be bound
   */
  public static InfoServer start(
      InfoServerConfig config,
      ObservedDatabase database,
      List<MetricSource> sources,
      IntSupplier rpcPort)
      throws IOException {
    InetSocketAddress address = new InetSocketAddress(config.bindAddress(), config.port());
    HttpServer server;
    try {
      server = HttpServer.create(address, 16);
    } catch (BindException e) {
      throw new IOException(
          "info server: cannot listen on "
              + config.bindAddress()
              + ":"
              + config.port()
              + " ("
              + e.getMessage()
              + "); set "
              + InfoServerConfig.PORT_KEY
              + " to another port, 0 for any free one, or -1 for no info server",
          e);
    }
    ExecutorService executor =
        Executors.newFixedThreadPool(
            THREADS, Thread.ofPlatform().name(THREAD + "-", 0).daemon().factory());
    Sampler sampler = new Sampler(database, InfoServerConfig.SAMPLES_KEPT);
    InfoServer info = new InfoServer(server, executor, sampler);
    JmxJson jmx = new JmxJson();
    String hostname = database.serverName().split(",")[0];
    server.createContext(
        "/jmx",
        exchange ->
            info.answer(
                exchange,
                () -> {
                  Map<String, String> query = query(exchange);
                  JmxJson.Response response =
                      jmx.query(
                          query.get("qry"),
                          query.get("get"),
                          query.get("excl"),
                          "true".equals(query.get("description")));
                  return new Reply(
                      response.status(), "application/json; charset=utf-8", response.json());
                }));
    server.createContext(
        "/prometheus",
        exchange ->
            info.answer(
                exchange,
                () -> {
                  Map<String, String> query = query(exchange);
                  return new Reply(
                      200,
                      "text/plain; version=0.0.4; charset=utf-8",
                      PrometheusText.render(
                          sources,
                          hostname,
                          query.get("qry"),
                          "true".equals(query.get("description"))));
                }));
    server.createContext(
        "/api/samples",
        exchange ->
            info.answer(
                exchange,
                () -> new Reply(200, "application/json; charset=utf-8", sampler.samplesJson())));
    server.createContext(
        "/api/tables",
        exchange ->
            info.answer(
                exchange,
                () ->
                    new Reply(
                        200, "application/json; charset=utf-8", TablesJson.render(database))));
    String version = BuildVersion.read();
    server.createContext(
        "/api/server",
        exchange ->
            info.answer(
                exchange,
                () ->
                    new Reply(
                        200,
                        "application/json; charset=utf-8",
                        ServerJson.render(
                            database,
                            version,
                            server.getAddress().getPort(),
                            rpcPort.getAsInt(),
                            System.currentTimeMillis()))));
    server.createContext("/", exchange -> info.answer(exchange, () -> asset(exchange)));
    server.setExecutor(executor);
    server.start();
    sampler.start(config.sampleIntervalMillis());
    LOG.info(
        "info server on http://{}:{}/ (/jmx, /prometheus)",
        config.bindAddress(),
        server.getAddress().getPort());
    return info;
  }

  /** What a request gets back. */
  private record Reply(int status, String contentType, byte[] body) {
    Reply(int status, String contentType, String body) {
      this(status, contentType, body.getBytes(StandardCharsets.UTF_8));
    }
  }

  private interface Handler {
    Reply handle() throws IOException;
  }

  private void answer(HttpExchange exchange, Handler handler) throws IOException {
    Reply reply;
    try {
      if (!exchange.getRequestMethod().equals("GET")
          && !exchange.getRequestMethod().equals("HEAD")) {
        reply = new Reply(405, "text/plain; charset=utf-8", "only GET is served\n");
      } else {
        reply = handler.handle();
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("info server: {} failed: {}", exchange.getRequestURI(), e.toString());
      reply =
          new Reply(
              500,
              "text/plain; charset=utf-8",
              "could not answer " + exchange.getRequestURI().getPath() + ": " + e + "\n");
    }
    exchange.getResponseHeaders().set("Content-Type", reply.contentType());
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(reply.status(), head ? -1 : reply.body().length);
    try (OutputStream body = exchange.getResponseBody()) {
      if (!head) {
        body.write(reply.body());
      }
    }
  }

  /**
   * The page, its script and style, or a WebJar's script or style, from the class path; nothing
   * else of the class path (classes, configuration) is served.
   */
  private static Reply asset(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (path.contains("..")) {
      return new Reply(400, "text/plain; charset=utf-8", "bad path\n");
    }
    String resource;
    if (path.equals("/") || path.equals("/index.html")) {
      resource = RESOURCES + "index.html";
    } else if (path.startsWith("/static/")) {
      resource = RESOURCES + path.substring("/static/".length());
    } else if (path.startsWith(WEBJARS)) {
      resource = WEBJAR_RESOURCES + path.substring(WEBJARS.length());
    } else {
      return new Reply(404, "text/plain; charset=utf-8", "no such page: " + path + "\n");
    }
    String extension = resource.substring(resource.lastIndexOf('.') + 1);
    if (!CONTENT_TYPES.containsKey(extension)) {
      // pages, scripts and styles only: the class path also holds classes and configuration
      return new Reply(404, "text/plain; charset=utf-8", "no such page: " + path + "\n");
    }
    try (InputStream in = open(resource)) {
      if (in == null) {
        return new Reply(404, "text/plain; charset=utf-8", "no such page: " + path + "\n");
      }
      return new Reply(200, CONTENT_TYPES.get(extension), in.readAllBytes());
    }
  }

  /**
   * A page of this package, or a file of the chart library's WebJar: on the module path that jar is
   * a module of its own, out of this class's reach, so it is read through the class loader.
   */
  private static InputStream open(String resource) {
    return resource.startsWith(WEBJAR_RESOURCES)
        ? InfoServer.class.getClassLoader().getResourceAsStream(resource.substring(1))
        : InfoServer.class.getResourceAsStream(resource);
  }

  private static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> values = new HashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null) {
      return values;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      String key = equals < 0 ? pair : pair.substring(0, equals);
      String value = equals < 0 ? "" : pair.substring(equals + 1);
      values.put(
          URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return values;
  }

  /** The address the server listens on (its port when 0 was asked). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** The UI's sample ring. */
  public Sampler sampler() {
    return sampler;
  }

  @Override
  public void close() {
    sampler.close();
    server.stop(0);
    executor.shutdownNow();
  }
}
