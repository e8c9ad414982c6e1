package dev.cellar.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ClusterMetrics.Option;
import org.apache.hadoop.hbase.ClusterStatus;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionLoad;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerLoad;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase's own client (2.6.1) asking an in-process {@code cellar serve} for the cluster's state:
 * {@code Admin.getClusterMetrics} with and without options, {@code getRegionServers}, {@code
 * getRegionMetrics} per server and per table, and what HBase's shell calls for {@code status}
 * (simple, summary, detailed) and {@code list_regions}. The shell's Ruby (JRuby and hbase-shell) is
 * not on this module's class path, so its commands are replayed through the Java calls its {@code
 * admin.rb} and {@code list_regions.rb} make, in the same order.
 */
class ClusterMetricsInteropTest {

  private static final byte[] F = bytes("f");
  private static final byte[] G = bytes("g");
  private static final TableName T = TableName.valueOf("t");
  private static final TableName U = TableName.valueOf("u");

  @TempDir Path dir;
  private ServedCellar served;
  private Admin admin;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @BeforeEach
  void start() throws IOException {
    served = ServedCellar.start(dir, Map.of("hbase.regionserver.info.port", "0"), Map.of());
    admin = served.connection.getAdmin();
    admin.createTable(
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(G))
            .build());
    admin.createTable(
        TableDescriptorBuilder.newBuilder(U)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
  }

  @AfterEach
  void stop() throws IOException {
    try {
      admin.close();
    } finally {
      served.close();
    }
  }

  /**
   * The server as HBase's client names it: the host and port it was reached at and the start code
   * hbase:meta gives.
   */
  private ServerName self() throws IOException {
    try (RegionLocator locator = served.connection.getRegionLocator(T)) {
      return ServerName.valueOf(
          served.server.hostAndPort(),
          locator.getRegionLocation(new byte[0]).getServerName().getStartCode());
    }
  }

  private byte[] regionName(TableName table) throws IOException {
    try (RegionLocator locator = served.connection.getRegionLocator(table)) {
      return locator.getRegionLocation(new byte[0]).getRegion().getRegionName();
    }
  }

  private void load(TableName name, int rows) throws IOException {
    try (Table table = served.connection.getTable(name)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        puts.add(
            new Put(bytes(String.format("row-%04d", i))).addColumn(F, bytes("q"), new byte[100]));
      }
      table.put(puts);
    }
  }

  private static Set<String> names(Iterable<byte[]> regionNames) {
    Set<String> names = new TreeSet<>();
    for (byte[] name : regionNames) {
      names.add(Bytes.toStringBinary(name));
    }
    return names;
  }

  @Test
  void clusterMetricsWithoutOptionsHaveEveryPart() throws IOException {
    ClusterMetrics metrics = admin.getClusterMetrics();
    ServerName self = self();
    assertEquals(
        EngineAccess.engine(served.server.database()).version(), metrics.getHBaseVersion());
    assertEquals(served.server.clusterId(), metrics.getClusterId());
    assertEquals(self, metrics.getMasterName());
    assertEquals(Set.of(self), metrics.getLiveServerMetrics().keySet());
    assertEquals(List.of(self), metrics.getServersName());
    assertEquals(List.of(), metrics.getDeadServerNames());
    assertEquals(List.of(), metrics.getBackupMasterNames());
    assertEquals(List.of(), metrics.getRegionStatesInTransition());
    assertEquals(List.of(), metrics.getMasterCoprocessorNames());
    assertEquals(Boolean.FALSE, metrics.getBalancerOn());
    int infoPort = served.server.database().infoServerAddress().orElseThrow().getPort();
    assertEquals(infoPort, metrics.getMasterInfoPort());
    assertEquals(3, metrics.getRegionCount(), "hbase:meta's region and one per table");
    assertEquals(3.0, metrics.getAverageLoad(), 1e-9);
    assertEquals(
        Set.of(TableName.META_TABLE_NAME, T, U), metrics.getTableRegionStatesCount().keySet());
    assertEquals(1, metrics.getTableRegionStatesCount().get(T).getOpenRegions());

    ServerMetrics server = metrics.getLiveServerMetrics().get(self);
    assertEquals(infoPort, server.getInfoServerPort());
    assertTrue(server.getMaxHeapSize().get(Size.Unit.MEGABYTE) > 0);
    assertTrue(server.getUsedHeapSize().get(Size.Unit.MEGABYTE) > 0);
    assertTrue(server.getReportTimestamp() >= server.getLastReportTimestamp());
    assertTrue(server.getLastReportTimestamp() > 0);
    assertEquals(
        names(List.of(regionName(T), regionName(U), bytes("hbase:meta,,1"))),
        names(server.getRegionMetrics().keySet()));
  }

  @Test
  void clusterMetricsWithOptionsHaveOnlyTheirParts() throws IOException {
    ClusterMetrics live = admin.getClusterMetrics(EnumSet.of(Option.LIVE_SERVERS));
    assertEquals(Set.of(self()), live.getLiveServerMetrics().keySet());
    assertNull(live.getHBaseVersion());
    assertNull(live.getClusterId());
    assertNull(live.getMasterName());
    assertNull(live.getBalancerOn());
    assertEquals(List.of(), live.getServersName());
    assertEquals(Map.of(), live.getTableRegionStatesCount());
    assertEquals(3, live.getRegionCount());

    ClusterMetrics version = admin.getClusterMetrics(EnumSet.of(Option.HBASE_VERSION));
    assertNotNull(version.getHBaseVersion());
    assertEquals(Map.of(), version.getLiveServerMetrics());
    assertNull(version.getClusterId());
  }

  @Test
  void requestCountsGrowWithGetsAndPuts() throws IOException {
    ServerName self = self();
    long before =
        admin
            .getClusterMetrics(EnumSet.of(Option.LIVE_SERVERS))
            .getLiveServerMetrics()
            .get(self)
            .getRequestCount();
    try (Table table = served.connection.getTable(T)) {
      for (int i = 0; i < 10; i++) {
        table.put(new Put(bytes("r" + i)).addColumn(F, bytes("q"), bytes("v")));
        table.get(new Get(bytes("r" + i)));
      }
    }
    long after =
        admin
            .getClusterMetrics(EnumSet.of(Option.LIVE_SERVERS))
            .getLiveServerMetrics()
            .get(self)
            .getRequestCount();
    assertTrue(after >= before + 20, before + " then " + after);

    RegionMetrics t = admin.getRegionMetrics(self, T).get(0);
    assertEquals(10, t.getReadRequestCount());
    assertEquals(10, t.getWriteRequestCount());
    assertEquals(20, t.getRequestCount());
  }

  @Test
  void regionServersAreTheServer() throws IOException {
    assertEquals(List.of(self()), new ArrayList<>(admin.getRegionServers()));
  }

  @Test
  void regionMetricsPerServerAndPerTableFollowPutsAndFlushes() throws IOException {
    ServerName self = self();
    List<RegionMetrics> all = admin.getRegionMetrics(self);
    assertEquals(3, all.size());
    assertEquals(
        names(List.of(regionName(T), regionName(U), bytes("hbase:meta,,1"))),
        names(all.stream().map(RegionMetrics::getRegionName).toList()));
    List<RegionMetrics> meta = admin.getRegionMetrics(self, TableName.META_TABLE_NAME);
    assertEquals(1, meta.size());
    assertArrayEquals(bytes("hbase:meta,,1"), meta.get(0).getRegionName());

    List<RegionMetrics> tables = admin.getRegionMetrics(self, T);
    assertEquals(1, tables.size());
    RegionMetrics t = tables.get(0);
    assertArrayEquals(regionName(T), t.getRegionName());
    assertEquals(2, t.getStoreCount());
    assertEquals(0, t.getStoreFileCount());
    assertEquals(0.0, t.getMemStoreSize().get(Size.Unit.MEGABYTE));
    assertEquals(1.0f, t.getDataLocality());

    load(T, 500);
    t = admin.getRegionMetrics(self, T).get(0);
    assertEquals(
        1.0,
        t.getMemStoreSize().get(Size.Unit.MEGABYTE),
        "rows in the MemStore: under 1 MB reports 1, as HBase rounds");
    assertEquals(0, t.getStoreFileCount());
    assertEquals(500, t.getWriteRequestCount());

    admin.flushRegion(regionName(T));
    t = admin.getRegionMetrics(self, T).get(0);
    assertEquals(1, t.getStoreFileCount(), "the flush wrote f's file; g is empty");
    assertEquals(0.0, t.getMemStoreSize().get(Size.Unit.MEGABYTE));
    assertEquals(1.0, t.getStoreFileSize().get(Size.Unit.MEGABYTE));
    assertTrue(t.getStoreFileRootLevelIndexSize().get(Size.Unit.KILOBYTE) > 0);
    assertTrue(t.getCompletedSequenceId() > 0);
    assertEquals(
        Set.of("f", "g"),
        t.getStoreSequenceId().keySet().stream()
            .map(Bytes::toString)
            .collect(java.util.stream.Collectors.toSet()));

    load(T, 10);
    admin.flushRegion(regionName(T));
    assertEquals(2, admin.getRegionMetrics(self, T).get(0).getStoreFileCount());
    assertEquals(
        0, admin.getRegionMetrics(self, U).get(0).getStoreFileCount(), "u is another region");

    admin.majorCompactRegion(regionName(T));
    t = admin.getRegionMetrics(self, T).get(0);
    assertEquals(1, t.getStoreFileCount());
    assertTrue(t.getLastMajorCompactionTimestamp() > 0);

    admin.disableTable(U);
    assertEquals(List.of(), admin.getRegionMetrics(self, U), "a disabled table is not served");
    assertEquals(2, admin.getRegionMetrics(self).size());
  }

  /**
   * HBase's shell {@code status}, {@code status 'simple'} and {@code status 'detailed'}: the calls
   * {@code admin.rb}'s {@code status} makes and the figures it prints.
   */
  @Test
  @SuppressWarnings("deprecation") // the shell reads HBase's deprecated ClusterStatus API
  void whatTheShellsStatusCalls() throws IOException {
    load(T, 10);
    ClusterStatus status = admin.getClusterStatus();
    // summary: "1 active master, 0 backup masters, 1 servers, 0 dead, 3.0000 average load"
    assertEquals(0, status.getBackupMastersSize());
    assertEquals(1, status.getServersSize());
    assertEquals(0, status.getDeadServers());
    assertEquals(3.0, status.getAverageLoad(), 1e-9);
    // simple
    ServerName master = status.getMaster();
    assertEquals(self(), master);
    long load = 0;
    int regions = 0;
    for (ServerName server : status.getServers()) {
      ServerLoad serverLoad = status.getLoad(server);
      assertTrue(serverLoad.toString().contains("numberOfOnlineRegions=3"), serverLoad::toString);
      load += serverLoad.getNumberOfRequests();
      regions += serverLoad.getNumberOfRegions();
    }
    assertTrue(load >= 0);
    assertEquals(3, regions);
    assertEquals(List.of(), new ArrayList<>(status.getDeadServerNames()));
    // detailed
    assertNotNull(status.getHBaseVersion());
    assertEquals(0, status.getRegionStatesInTransition().size());
    assertEquals(List.of(), status.getMasterTasks());
    assertEquals("[]", java.util.Arrays.toString(admin.getMasterCoprocessors()));
    for (ServerName server : status.getServers()) {
      Map<byte[], RegionLoad> loads = status.getLoad(server).getRegionsLoad();
      assertEquals(3, loads.size());
      for (RegionLoad region : loads.values()) {
        assertNotNull(region.getNameAsString());
        assertTrue(region.toString().contains("numberOfStores="), region::toString);
      }
      assertEquals(List.of(), status.getLoad(server).getTasks());
    }
  }

  /**
   * HBase's shell {@code list_regions 't'}: the table must be enabled; each region location of the
   * table is matched with its server's load in {@code ClusterStatus(getClusterMetrics())}, found by
   * the server name the location carries and the region's name, and prints the server, the region,
   * its keys, its store file size, its requests and its locality.
   */
  @Test
  @SuppressWarnings("deprecation") // list_regions reads HBase's deprecated ClusterStatus API
  void whatTheShellsListRegionsCalls() throws IOException {
    load(T, 10);
    try (Table table = served.connection.getTable(T)) {
      table.get(new Get(bytes("row-0001")));
    }
    admin.flushRegion(regionName(T));
    assertTrue(admin.isTableEnabled(T));
    ClusterStatus status = new ClusterStatus(admin.getClusterMetrics());
    try (RegionLocator locator = served.connection.getRegionLocator(T)) {
      List<HRegionLocation> locations = locator.getAllRegionLocations();
      assertEquals(1, locations.size());
      HRegionLocation location = locations.get(0);
      ServerLoad serverLoad = status.getLoad(location.getServerName());
      assertNotNull(serverLoad, "the location's server is the live server");
      RegionLoad region = serverLoad.getRegionsLoad().get(location.getRegion().getRegionName());
      assertNotNull(region, "the region's load is found under its name");
      assertEquals(1, region.getStorefileSizeMB());
      assertEquals(11, region.getRequestsCount());
      assertEquals(1.0f, region.getDataLocality());
      assertTrue(
          location
              .getServerName()
              .toString()
              .startsWith(served.server.hostAndPort().replace(':', ',')));
    }
  }
}
