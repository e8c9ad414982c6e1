package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cellar.Admin;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.observe.http.InfoServerConfig;
import dev.cellar.server.NettyLeakCheck;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin calls of the {@code sub=IPC} bean: known {@code Admin} operations through Cellar's
 * client move {@code rpcAdminRequestCount} and each {@code rpcAdmin<Method>RequestCount} by exactly
 * the {@code MasterService} calls they send (a failed one counts too), gets and puts move none of
 * them, and {@code /prometheus} carries the same counts under HBase's names.
 */
@ExtendWith(NettyLeakCheck.class)
class AdminCallMetricsTest {

  private static final String IPC = "Hadoop:service=HBase,name=RegionServer,sub=IPC";
  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);

  @TempDir Path directory;

  @Test
  void knownAdminCallsMoveTheirMethodsCountsExactly() throws Exception {
    CellarConfig config = CellarConfig.defaults().with(InfoServerConfig.PORT_KEY, "0");
    try (ServedDatabase served = ServedDatabase.start(directory, config)) {
      Map<String, Long> before = adminCounts(served);
      assertEquals(0, before.get("rpcAdminRequestCount"), "no admin call yet: " + before);

      Admin admin = served.client.admin();
      admin.createTable(TableDescriptor.of("t1", ColumnFamilyDescriptor.of("f")));
      admin.createTable(TableDescriptor.of("t2", ColumnFamilyDescriptor.of("f")));
      for (int i = 0; i < 3; i++) {
        assertEquals(List.of("t1", "t2"), admin.listTables());
      }
      assertEquals("t1", admin.describe("t1").name());
      assertTrue(admin.tableExists("t1"));
      assertFalse(admin.tableExists("missing"), "a failed GetTableState");
      admin.dropTable("t2");
      Map<String, Long> afterAdmin = adminCounts(served);

      Map<String, Long> expected = new HashMap<>();
      expected.put("rpcAdminCreateTableRequestCount", 2L);
      expected.put("rpcAdminGetProcedureResultRequestCount", 4L);
      expected.put("rpcAdminGetTableNamesRequestCount", 3L);
      expected.put("rpcAdminGetTableDescriptorsRequestCount", 1L);
      expected.put("rpcAdminGetTableStateRequestCount", 2L);
      expected.put("rpcAdminDisableTableRequestCount", 1L);
      expected.put("rpcAdminDeleteTableRequestCount", 1L);
      expected.put("rpcAdminRequestCount", 14L);
      afterAdmin.forEach(
          (name, count) ->
              assertEquals(expected.getOrDefault(name, 0L), count, name + " in " + afterAdmin));
      assertTrue(
          afterAdmin.containsKey("rpcAdminTruncateTableRequestCount"),
          "every method published, called or not: " + afterAdmin);

      Table table = served.client.table("t1");
      for (int i = 0; i < 5; i++) {
        table.put(new Put(FAMILY).addColumn(FAMILY, FAMILY, FAMILY));
        table.get(new Get(FAMILY)).close();
      }
      assertEquals(afterAdmin, adminCounts(served), "gets and puts are no admin calls");

      String prometheus = get(served, "/prometheus?qry=ipc_rpc_admin");
      assertTrue(prometheus.contains("\nipc_rpc_admin_create_table_request_count{"), prometheus);
      assertEquals(2, prometheusValue(prometheus, "ipc_rpc_admin_create_table_request_count"));
      assertEquals(
          4, prometheusValue(prometheus, "ipc_rpc_admin_get_procedure_result_request_count"));
      assertEquals(14, prometheusValue(prometheus, "ipc_rpc_admin_request_count"));
    }
  }

  /** The admin call counts of the IPC bean, as {@code /jmx} shows them. */
  private static Map<String, Long> adminCounts(ServedDatabase served) throws Exception {
    JsonObject ipc =
        JsonParser.parseString(
                get(served, "/jmx?qry=" + URLEncoder.encode(IPC, StandardCharsets.UTF_8)))
            .getAsJsonObject()
            .getAsJsonArray("beans")
            .get(0)
            .getAsJsonObject();
    Map<String, Long> counts = new HashMap<>();
    for (Map.Entry<String, JsonElement> attribute : ipc.entrySet()) {
      if (attribute.getKey().startsWith("rpcAdmin")) {
        counts.put(attribute.getKey(), attribute.getValue().getAsLong());
      }
    }
    return counts;
  }

  private static String get(ServedDatabase served, String path) throws Exception {
    int port = served.server.database().infoServerAddress().orElseThrow().getPort();
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static long prometheusValue(String text, String name) {
    for (String line : text.split("\n")) {
      if (line.startsWith(name + "{")) {
        return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no " + name + " in\n" + text);
  }
}
