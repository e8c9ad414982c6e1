package dev.cellar.observe.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.config.InvalidConfigException;
import dev.cellar.observe.PrometheusTextParser;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A known workload read back through the three ways out: the JMX API under HBase's object and
 * attribute names, {@code /jmx} in the shape of HBase's servlet (with {@code qry} and {@code get}),
 * and {@code /prometheus} parsed as Prometheus's text format; plus the UI's assets and data, and
 * the info port's settings.
 */
class ObservabilityTest {

  private static final String SERVER = "Hadoop:service=HBase,name=RegionServer,sub=Server";
  private static final int GETS = KnownWorkload.ROWS * KnownWorkload.GET_PASSES;

  @TempDir Path directory;
  private Cellar cellar;
  private final HttpClient http = HttpClient.newHttpClient();
  private final MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();

  @BeforeEach
  void run() throws IOException {
    cellar = KnownWorkload.openAndRun(directory);
  }

  @AfterEach
  void close() throws IOException {
    if (cellar != null) {
      cellar.close();
    }
  }

  private HttpResponse<String> get(String pathAndQuery) throws Exception {
    URI uri =
        URI.create(
            "http://127.0.0.1:"
                + cellar.infoServerAddress().orElseThrow().getPort()
                + pathAndQuery);
    return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void slowClientsHoldAThreadEachNotThePage() throws Exception {
    int port = cellar.infoServerAddress().orElseThrow().getPort();
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        Socket socket = new Socket("127.0.0.1", port);
        socket.getOutputStream().write("GET /jmx HTTP/1.1\r\nHost: x\r\n".getBytes());
        socket.getOutputStream().flush();
        slow.add(socket);
      }
      HttpRequest page =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/server"))
              .timeout(Duration.ofSeconds(10))
              .build();
      assertEquals(
          200,
          http.send(page, HttpResponse.BodyHandlers.ofString()).statusCode(),
          "the page answered beside two slow clients");
    } finally {
      for (Socket socket : slow) {
        socket.close();
      }
    }
  }

  private Object attribute(String bean, String name) throws Exception {
    return jmx.getAttribute(new ObjectName(bean), name);
  }

  @Test
  void theJmxApiCountsTheWorkloadUnderHBaseNames() throws Exception {
    assertEquals((long) GETS, attribute(SERVER, "Get_num_ops"));
    assertEquals((long) GETS, attribute(SERVER, "readRequestCount"));
    assertEquals((long) KnownWorkload.ROWS, attribute(SERVER, "Put_num_ops"));
    assertEquals((long) KnownWorkload.ROWS, attribute(SERVER, "writeRequestCount"));
    assertEquals(1L, attribute(SERVER, "FlushTime_num_ops"));
    assertEquals(1L, attribute(SERVER, "regionCount"));
    assertEquals(1L, attribute(SERVER, "storeFileCount"));
    double p99 = (Double) attribute(SERVER, "Get_99th_percentile");
    double max = (Double) attribute(SERVER, "Get_max");
    assertTrue(p99 > 0 && p99 <= max, "p99 " + p99 + " ms, max " + max + " ms");

    CacheStats.Snapshot stats = EngineAccess.engine(cellar).blockCache().stats().snapshot();
    assertEquals(stats.hitCount(), attribute(SERVER, "blockCacheHitCount"));
    assertEquals(stats.missCount(), attribute(SERVER, "blockCacheMissCount"));
    long l2Hits = (Long) attribute(SERVER, "l2CacheHitCount");
    assertTrue(l2Hits >= KnownWorkload.ROWS, "the second pass hits L2 for data: " + l2Hits);
    assertTrue((Long) attribute(SERVER, "l1CacheHitCount") > 0, "index blocks hit L1");
    double hitPercent = (Double) attribute(SERVER, "blockCacheCountHitPercent");
    assertTrue(hitPercent > 40 && hitPercent <= 100, "hit percent " + hitPercent);

    String curve = "Hadoop:service=HBase,name=RegionServer,sub=CellarMissRatioCurve";
    long dataLookups = stats.dataLookups();
    assertEquals(
        dataLookups,
        attribute(curve, "sampledAccesses"),
        "at a rate of 1 the curve counts every data-block lookup");
    assertEquals(1.0, attribute(curve, "samplingRate"));
    assertEquals(
        EngineAccess.engine(cellar).missRatioCurve().configuredBytes(),
        attribute(curve, "configuredCacheSize"));
    assertEquals(18L, attribute(curve, "configuredPoint"));
    double measured = (double) stats.hits(BlockCategory.DATA) / dataLookups;
    assertEquals(measured, (Double) attribute(curve, "measuredHitRatio"), 1e-12);
    for (int k = 0; k <= 30; k++) {
      // the table is far below an eighth of the cache: every reuse hits at every size
      assertEquals(
          measured,
          (Double) attribute(curve, String.format("point%02dHitRatio", k)),
          1e-9,
          "point " + k);
    }
    assertEquals(
        EngineAccess.engine(cellar).missRatioCurve().configuredBytes() / 8.0,
        (double) (Long) attribute(curve, "point00Size"),
        1);
    assertEquals(
        EngineAccess.engine(cellar).missRatioCurve().configuredBytes() * 4.0,
        (double) (Long) attribute(curve, "point30Size"),
        1);

    String wal = "Hadoop:service=HBase,name=RegionServer,sub=WAL";
    assertEquals((long) KnownWorkload.ROWS, attribute(wal, "appendCount"));
    assertTrue((Long) attribute(wal, "SyncTime_num_ops") >= KnownWorkload.ROWS);

    String detail = "Hadoop:service=HBase,name=RegionServer,sub=CellarBlockCache";
    assertEquals("offheap", attribute(detail, "bucketCacheIoEngine"));
    // the bucket cache's writers store blocks in the background: a busy machine can leave the
    // last ones queued, counted in the L2 but in no slot yet
    long deadline = System.nanoTime() + 30_000_000_000L;
    while ((Long) attribute(detail, "bucketCacheQueuedCount") > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    long usedSlots = 0;
    for (var info : jmx.getMBeanInfo(new ObjectName(detail)).getAttributes()) {
      if (info.getName().startsWith("bucketSizeClass") && info.getName().endsWith("UsedSlots")) {
        usedSlots += (Long) attribute(detail, info.getName());
      }
    }
    assertEquals(
        attribute(SERVER, "l2CacheCount"),
        usedSlots,
        "every L2 block takes one slot of a size class");
    assertTrue(
        (Long) attribute("Hadoop:service=HBase,name=RegionServer,sub=CellarMemory", "offHeapBytes")
            >= 16L * 1024 * 1024,
        "the off-heap L2 counts as off-heap");
    assertTrue(attribute("Hadoop:service=HBase,name=JvmMetrics", "GcCount") instanceof Long);

    cellar.close();
    cellar = null;
    assertFalse(jmx.isRegistered(new ObjectName(SERVER)), "closing unregisters the beans");
  }

  @Test
  void jmxJsonHasTheShapeOfHBasesServlet() throws Exception {
    HttpResponse<String> response =
        get("/jmx?qry=" + URLEncoder.encode(SERVER, StandardCharsets.UTF_8));
    assertEquals(200, response.statusCode());
    assertTrue(
        response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    JsonArray beans =
        JsonParser.parseString(response.body()).getAsJsonObject().getAsJsonArray("beans");
    assertEquals(1, beans.size(), "qry selects one bean");
    JsonObject server = beans.get(0).getAsJsonObject();
    assertEquals(SERVER, server.get("name").getAsString());
    assertTrue(server.has("modelerType"));
    assertEquals(GETS, server.get("Get_num_ops").getAsLong());
    assertEquals(
        server.get("blockCacheHitCount").getAsLong(),
        EngineAccess.engine(cellar).blockCache().stats().snapshot().hitCount());

    JsonArray all =
        JsonParser.parseString(get("/jmx").body()).getAsJsonObject().getAsJsonArray("beans");
    assertTrue(names(all).contains("java.lang:type=Memory"), "no qry lists every bean");
    assertTrue(names(all).contains("Hadoop:service=HBase,name=RegionServer,sub=WAL"));
    JsonObject runtime =
        JsonParser.parseString(get("/jmx?qry=java.lang:type=Runtime").body())
            .getAsJsonObject()
            .getAsJsonArray("beans")
            .get(0)
            .getAsJsonObject();
    assertTrue(runtime.has("Uptime"), runtime.keySet().toString());
    assertFalse(runtime.has("SystemProperties"), "the command line's -D values are not published");
    assertFalse(runtime.has("InputArguments"), "nor the JVM's arguments");
    assertFalse(
        get("/jmx?get=java.lang:type=Runtime::SystemProperties").body().contains("java.home"));

    JsonObject one =
        JsonParser.parseString(
                get("/jmx?get="
                        + URLEncoder.encode(SERVER + "::Get_num_ops", StandardCharsets.UTF_8))
                    .body())
            .getAsJsonObject()
            .getAsJsonArray("beans")
            .get(0)
            .getAsJsonObject();
    assertEquals(GETS, one.get("Get_num_ops").getAsLong());
    assertFalse(one.has("Put_num_ops"), "get= writes one attribute");

    JsonObject described =
        JsonParser.parseString(
                get("/jmx?description=true&qry="
                        + URLEncoder.encode(SERVER, StandardCharsets.UTF_8))
                    .body())
            .getAsJsonObject()
            .getAsJsonArray("beans")
            .get(0)
            .getAsJsonObject();
    assertEquals(GETS, described.getAsJsonObject("Get_num_ops").get("value").getAsLong());

    HttpResponse<String> bad =
        get("/jmx?qry=" + URLEncoder.encode("no colon", StandardCharsets.UTF_8));
    assertEquals(400, bad.statusCode());
    assertEquals(
        "ERROR", JsonParser.parseString(bad.body()).getAsJsonObject().get("result").getAsString());
  }

  private static List<String> names(JsonArray beans) {
    List<String> names = new ArrayList<>();
    for (JsonElement bean : beans) {
      names.add(bean.getAsJsonObject().get("name").getAsString());
    }
    return names;
  }

  @Test
  void prometheusTextParsesAndCarriesTheFigures() throws Exception {
    HttpResponse<String> response = get("/prometheus");
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    PrometheusTextParser.Exposition parsed = PrometheusTextParser.parse(response.body());
    assertEquals("counter", parsed.types().get("server_get_num_ops"));
    assertEquals(GETS, parsed.value("server_get_num_ops"));
    assertEquals(
        "regionserver", parsed.samples("server_get_num_ops").getFirst().labels().get("context"));
    assertEquals(
        (double) (Long) attribute(SERVER, "l2CacheHitCount"),
        parsed.value("server_l2_cache_hit_count"));
    assertEquals(KnownWorkload.ROWS, parsed.value("wal_append_count"));
    assertEquals("gauge", parsed.types().get("server_get_99_9th_percentile"));
    assertEquals(
        (Double)
            attribute(
                "Hadoop:service=HBase,name=RegionServer,sub=CellarMissRatioCurve",
                "point18HitRatio"),
        parsed.value("cellar_miss_ratio_curve_point18_hit_ratio"),
        1e-12);
    assertEquals("counter", parsed.types().get("cellar_miss_ratio_curve_sampled_accesses"));
    assertTrue(
        parsed.types().containsKey("cellar_block_cache_bucket_size_class5120_used_slots"),
        "a capital after a digit starts a word, as in HBase's names");
    for (PrometheusTextParser.Sample sample : parsed.samples()) {
      assertTrue(parsed.types().containsKey(sample.name()), "no TYPE for " + sample.name());
    }
    PrometheusTextParser.Exposition filtered =
        PrometheusTextParser.parse(get("/prometheus?qry=wal_").body());
    assertFalse(filtered.samples().isEmpty());
    assertTrue(filtered.samples().stream().allMatch(s -> s.name().contains("wal_")));
  }

  @Test
  void theUiAndItsDataAreServedFromTheJar() throws Exception {
    HttpResponse<String> page = get("/");
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("Block Cache"));
    assertEquals(200, get("/static/app.js").statusCode());
    HttpResponse<String> library = get("/webjars/uplot/1.6.30/dist/uPlot.iife.min.js");
    assertEquals(200, library.statusCode(), "uPlot from its WebJar");
    assertTrue(library.body().contains("uPlot"));
    assertEquals(404, get("/no-such-page").statusCode());
    assertEquals(400, get("/static/../index.html").statusCode());
    assertEquals(404, get("/static/InfoServer.class").statusCode(), "no classes");
    assertEquals(404, get("/webjars/uplot/1.6.30/package.json").statusCode(), "no metadata");

    JsonObject tables = JsonParser.parseString(get("/api/tables").body()).getAsJsonObject();
    JsonObject table = tables.getAsJsonArray("tables").get(0).getAsJsonObject();
    assertEquals("t", table.get("name").getAsString());
    JsonObject family = table.getAsJsonArray("families").get(0).getAsJsonObject();
    assertEquals(1, family.getAsJsonArray("files").size());
    assertTrue(
        family.getAsJsonArray("files").get(0).getAsJsonObject().get("bytes").getAsLong() > 0);
  }

  @Test
  void theServerSummaryNamesVersionStartDirectoryAndPorts() throws Exception {
    JsonObject about = JsonParser.parseString(get("/api/server").body()).getAsJsonObject();
    assertEquals(projectVersion(), about.get("version").getAsString());
    assertEquals(attribute(SERVER, "regionServerStartTime"), about.get("startMillis").getAsLong());
    assertEquals(
        about.get("nowMillis").getAsLong() - about.get("startMillis").getAsLong(),
        about.get("uptimeMillis").getAsLong());
    assertEquals(directory.toString(), about.get("directory").getAsString());
    assertEquals(
        cellar.infoServerAddress().orElseThrow().getPort(), about.get("infoPort").getAsInt());
    assertTrue(about.get("rpcPort").isJsonNull(), "embedded: no RPC port");
    EngineAccess.engine(cellar).servesRpcOn(16020);
    assertEquals(
        16020,
        JsonParser.parseString(get("/api/server").body())
            .getAsJsonObject()
            .get("rpcPort")
            .getAsInt(),
        "the port a server says it answers on");
  }

  /** The project version as cellar-core's pom names it (its parent's), read from the source. */
  static String projectVersion() throws IOException {
    Matcher version =
        Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL)
            .matcher(Files.readString(Path.of("pom.xml")));
    assertTrue(version.find(), "cellar-core's pom names its parent's version");
    return version.group(1);
  }

  @Test
  void theChartDataIsARingOfSamples() throws Exception {
    JsonObject json = JsonParser.parseString(get("/api/samples").body()).getAsJsonObject();
    assertTrue(json.get("samples").isJsonArray());
  }

  @Test
  void theInfoPortFollowsHBasesSettings(@TempDir Path other) throws Exception {
    try (Cellar off = Cellar.open(other.resolve("a"), CellarConfig.defaults())) {
      assertTrue(off.infoServerAddress().isEmpty(), "embedded: off unless asked");
    }
    try (Cellar off =
        Cellar.open(
            other.resolve("b"), CellarConfig.defaults().with(InfoServerConfig.PORT_KEY, "-1"))) {
      assertTrue(off.infoServerAddress().isEmpty(), "-1: off");
    }
    InvalidConfigException invalid =
        assertThrows(
            InvalidConfigException.class,
            () ->
                Cellar.open(
                    other.resolve("c"),
                    CellarConfig.defaults().with(InfoServerConfig.PORT_KEY, "70000")));
    assertTrue(invalid.getMessage().contains(InfoServerConfig.PORT_KEY), invalid.getMessage());
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      IOException failure =
          assertThrows(
              IOException.class,
              () ->
                  Cellar.open(
                      other.resolve("d"),
                      CellarConfig.defaults()
                          .with(InfoServerConfig.PORT_KEY, String.valueOf(taken.getLocalPort()))));
      assertTrue(
          failure.getMessage().contains(InfoServerConfig.PORT_KEY)
              && failure.getMessage().contains(String.valueOf(taken.getLocalPort())),
          failure.getMessage());
    }
  }
}
