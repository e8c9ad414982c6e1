package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.observe.http.InfoServerConfig;
import dev.cellar.server.NettyLeakCheck;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's RPC metrics of a server driven by Cellar's client with known traffic: the {@code
 * sub=Server} request counts ({@code totalRequestCount}, {@code rpcGetRequestCount}, {@code
 * rpcMutateRequestCount}, {@code rpcMultiRequestCount}, {@code rpcScanRequestCount}) move by
 * exactly the RPCs sent, and the {@code sub=IPC} bean counts every call answered in its time and
 * size histograms, a failed call under {@code exceptions}, and is idle ({@code queueSize} 0) once
 * the client waits; {@code /jmx} says what the JMX API says.
 */
@ExtendWith(NettyLeakCheck.class)
class ServerRpcMetricsTest {

  private static final String SERVER = "Hadoop:service=HBase,name=RegionServer,sub=Server";
  private static final String IPC = "Hadoop:service=HBase,name=RegionServer,sub=IPC";
  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
  private static final int GETS = 37;
  private static final int PUTS = 23;
  private static final int BATCHES = 3;

  private final MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();

  @TempDir Path directory;

  @Test
  void knownTrafficMovesTheRpcFiguresByItsCounts() throws Exception {
    CellarConfig config = CellarConfig.defaults().with(InfoServerConfig.PORT_KEY, "0");
    try (ServedDatabase served = ServedDatabase.start(directory, config)) {
      served.client.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = served.client.table("t");
      table.get(new Get(row(0))).close();
      Map<String, Long> before = figures();

      for (int i = 0; i < PUTS; i++) {
        table.put(new Put(row(i)).addColumn(FAMILY, FAMILY, row(i)));
      }
      for (int b = 0; b < BATCHES; b++) {
        List<Put> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          batch.add(new Put(row(100 + 5 * b + i)).addColumn(FAMILY, FAMILY, row(i)));
        }
        table.put(batch);
      }
      for (int i = 0; i < GETS; i++) {
        try (Result result = table.get(new Get(row(i % PUTS)))) {
          assertTrue(!result.isEmpty(), "row " + i % PUTS);
        }
      }
      int scanned = 0;
      try (ResultScanner scanner = table.scanner(new Scan())) {
        for (Result result = scanner.next(); result != null; result = scanner.next()) {
          scanned++;
          result.close();
        }
      }
      assertEquals(PUTS + BATCHES * 5, scanned);
      Map<String, Long> after = figures();

      assertEquals(GETS, delta(before, after, "rpcGetRequestCount"));
      assertEquals(PUTS, delta(before, after, "rpcMutateRequestCount"));
      assertEquals(BATCHES, delta(before, after, "rpcMultiRequestCount"));
      long scans = delta(before, after, "rpcScanRequestCount");
      assertTrue(scans >= 1, "the scan took " + scans + " Scan RPCs");
      long calls = GETS + PUTS + BATCHES + scans;
      assertEquals(calls, delta(before, after, "totalRequestCount"), "one per RPC");
      assertEquals(
          PUTS + BATCHES * 5 + GETS + scanned,
          delta(before, after, "totalRowActionRequestCount"),
          "rows written and read");
      long scanTimes = delta(before, after, "ScanTime_num_ops");
      assertTrue(scanTimes >= 1 && scanTimes <= scans, "Scan RPCs reading rows: " + scanTimes);
      assertEquals(scanTimes, delta(before, after, "ScanSize_num_ops"));
      assertTrue((Long) jmx.getAttribute(new ObjectName(SERVER), "ScanSize_max") > 0);

      for (String histogram :
          new String[] {
            "queueCallTime", "processCallTime", "totalCallTime", "requestSize", "responseSize"
          }) {
        assertEquals(calls, delta(before, after, histogram + "_num_ops"), histogram);
      }
      long received = delta(before, after, "receivedBytes");
      assertTrue(
          received >= calls * (4 + (Long) jmx.getAttribute(new ObjectName(IPC), "requestSize_min")),
          "received " + received + " bytes in " + calls + " calls");
      assertTrue(delta(before, after, "sentBytes") >= calls * 4, "every response framed");
      assertEquals(0, delta(before, after, "exceptions"));
      assertEquals(0L, jmx.getAttribute(new ObjectName(IPC), "queueSize"), "nothing in flight");
      assertEquals(0L, jmx.getAttribute(new ObjectName(IPC), "numCallsInGeneralQueue"));
      assertEquals(0L, jmx.getAttribute(new ObjectName(IPC), "numActiveHandler"));
      assertTrue((Long) jmx.getAttribute(new ObjectName(IPC), "numOpenConnections") >= 1);

      assertThrows(
          Exception.class,
          () ->
              table
                  .get(new Get(row(0)).addFamily("no-such-family".getBytes(StandardCharsets.UTF_8)))
                  .close());
      Map<String, Long> failed = figures();
      assertEquals(1, delta(after, failed, "exceptions"), "the failed Get");
      assertEquals(1, delta(after, failed, "exceptions.otherExceptions"));
      assertEquals(
          0,
          delta(after, failed, "totalCallTime_num_ops"),
          "only calls answered are timed, as in HBase");
      assertEquals(1, delta(after, failed, "rpcGetRequestCount"));

      JsonObject ipc = jmxJson(served, IPC);
      for (String name :
          new String[] {
            "receivedBytes",
            "sentBytes",
            "totalCallTime_num_ops",
            "exceptions",
            "exceptions.otherExceptions",
            "queueSize"
          }) {
        assertEquals(failed.get(name), ipc.get(name).getAsLong(), "/jmx " + name);
      }
      assertEquals(
          failed.get("rpcGetRequestCount"),
          jmxJson(served, SERVER).get("rpcGetRequestCount").getAsLong());
    }
  }

  /** Every numeric attribute of the Server and IPC beans, by name. */
  private Map<String, Long> figures() throws Exception {
    Map<String, Long> values = new HashMap<>();
    for (String bean : new String[] {SERVER, IPC}) {
      ObjectName name = new ObjectName(bean);
      for (var info : jmx.getMBeanInfo(name).getAttributes()) {
        if (jmx.getAttribute(name, info.getName()) instanceof Long value) {
          values.put(info.getName(), value);
        }
      }
    }
    return values;
  }

  private static long delta(Map<String, Long> before, Map<String, Long> after, String name) {
    assertTrue(after.containsKey(name), "no attribute " + name);
    return after.get(name) - before.get(name);
  }

  private static JsonObject jmxJson(ServedDatabase served, String bean) throws Exception {
    int port = served.server.database().infoServerAddress().orElseThrow().getPort();
    String body =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:"
                                + port
                                + "/jmx?qry="
                                + URLEncoder.encode(bean, StandardCharsets.UTF_8)))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return JsonParser.parseString(body)
        .getAsJsonObject()
        .getAsJsonArray("beans")
        .get(0)
        .getAsJsonObject();
  }

  private static byte[] row(int i) {
    return String.format("row-%04d", i).getBytes(StandardCharsets.UTF_8);
  }
}
