package dev.cellar.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.TableDescriptor;
import dev.cellar.metrics.RegionStats;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.RegionNames;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionLoadRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionLoadResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ClusterStatus;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.Option;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.TableRegionStatesCount;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code MasterService.GetClusterStatus} and {@code AdminService.GetRegionLoad} on the wire: a
 * request without options gets every part and one with options only the parts it names; the one
 * live server's load carries the RPC request counts, the heap, the info port and a report window
 * that moves on; each served region's load (hbase:meta's and each enabled table's) carries the
 * engine's figures, which follow reads, writes and flushes, and a disabled table has none.
 */
class ClusterStatusTest {

  private static final byte[] F = bytes("f");

  @TempDir Path dir;
  private CellarServer server;
  private RawRpcClient master;
  private RawRpcClient admin;
  private RawRpcClient client;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Table t (families f and g): 200 rows in f, flushed twice and major-compacted, so f has one
   * major-compacted file and g none; table u: empty. The server has an info server.
   */
  @BeforeEach
  void start() throws IOException {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("f"), ColumnFamilyDescriptor.of("g")));
      cellar.admin().createTable(TableDescriptor.of("u", ColumnFamilyDescriptor.of("f")));
      for (int flush = 0; flush < 2; flush++) {
        for (int i = 0; i < 100; i++) {
          cellar
              .table("t")
              .put(
                  new Put(bytes("row-" + flush + "-" + i)).addColumn(F, bytes("q"), new byte[100]));
        }
        cellar.admin().flush("t");
      }
      cellar.admin().majorCompact("t");
    }
    CellarConfig config =
        CellarConfig.defaults()
            .with(ServerOptions.PORT, "0")
            .with("hbase.regionserver.info.port", "0");
    server = CellarServer.start(ServerOptions.from(dir, config), config);
    master = RawRpcClient.connect(server.address(), "MasterService");
    admin = RawRpcClient.connect(server.address(), "AdminService");
    client = RawRpcClient.connect(server.address(), "ClientService");
  }

  @AfterEach
  void stop() throws IOException {
    try {
      master.close();
      admin.close();
      client.close();
    } finally {
      server.close();
    }
  }

  private ClusterStatus status(Option... options) throws IOException {
    master.call(
        "GetClusterStatus",
        GetClusterStatusRequest.newBuilder().addAllOptions(List.of(options)).build(),
        null);
    RawRpcClient.Response response = master.read();
    assertFalse(response.header().hasException(), () -> response.header().toString());
    return GetClusterStatusResponse.parseFrom(response.body()).getClusterStatus();
  }

  private List<RegionLoad> regionLoads(HBaseProtos.TableName table) throws IOException {
    GetRegionLoadRequest.Builder request = GetRegionLoadRequest.newBuilder();
    if (table != null) {
      request.setTableName(table);
    }
    admin.call("GetRegionLoad", request.build(), null);
    RawRpcClient.Response response = admin.read();
    assertFalse(response.header().hasException(), () -> response.header().toString());
    return GetRegionLoadResponse.parseFrom(response.body()).getRegionLoadsList();
  }

  private static HBaseProtos.TableName tableName(String namespace, String qualifier) {
    return HBaseProtos.TableName.newBuilder()
        .setNamespace(ByteString.copyFromUtf8(namespace))
        .setQualifier(ByteString.copyFromUtf8(qualifier))
        .build();
  }

  private HBaseProtos.RegionSpecifier region(String table) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(server.catalog().byName(table).regionName()))
        .build();
  }

  private RegionStats stats(String table) {
    return EngineAccess.engine(server.database()).regionStats(table).getFirst();
  }

  private static RegionLoad named(List<RegionLoad> loads, byte[] regionName) {
    ByteString name = ByteString.copyFrom(regionName);
    return loads.stream()
        .filter(load -> load.getRegionSpecifier().getValue().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "no load of region "
                        + new String(regionName, StandardCharsets.UTF_8)
                        + " in "
                        + loads));
  }

  private static int roundedUp(long bytes, int unit) {
    return bytes == 0 ? 0 : bytes < unit ? 1 : (int) (bytes / unit);
  }

  private void put(String table, String row) throws IOException {
    client.call(
        "Mutate",
        ClientProtos.MutateRequest.newBuilder()
            .setRegion(region(table))
            .setMutation(
                ClientProtos.MutationProto.newBuilder()
                    .setRow(ByteString.copyFromUtf8(row))
                    .setMutateType(ClientProtos.MutationProto.MutationType.PUT)
                    .addColumnValue(
                        ClientProtos.MutationProto.ColumnValue.newBuilder()
                            .setFamily(ByteString.copyFrom(F))
                            .addQualifierValue(
                                ClientProtos.MutationProto.ColumnValue.QualifierValue.newBuilder()
                                    .setQualifier(ByteString.copyFromUtf8("q"))
                                    .setValue(ByteString.copyFromUtf8("v")))))
            .build(),
        null);
    assertFalse(client.read().header().hasException());
  }

  private void get(String table, String row) throws IOException {
    client.call(
        "Get",
        ClientProtos.GetRequest.newBuilder()
            .setRegion(region(table))
            .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFromUtf8(row)))
            .build(),
        null);
    assertFalse(client.read().header().hasException());
  }

  @Test
  void aRequestWithoutOptionsGetsEveryPart() throws IOException {
    ClusterStatus status = status();
    HBaseProtos.ServerName self = server.identity().toProto();
    assertEquals(
        EngineAccess.engine(server.database()).version(), status.getHbaseVersion().getVersion());
    assertEquals(server.clusterId(), status.getClusterId().getClusterId());
    assertEquals(self, status.getMaster());
    assertEquals(1, status.getLiveServersCount());
    assertEquals(self, status.getLiveServers(0).getServer());
    assertEquals(List.of(self), status.getServersNameList());
    assertTrue(status.hasBalancerOn());
    assertFalse(status.getBalancerOn());
    assertEquals(
        server.database().infoServerAddress().orElseThrow().getPort(), status.getMasterInfoPort());
    assertEquals(0, status.getDeadServersCount());
    assertEquals(0, status.getRegionsInTransitionCount());
    assertEquals(0, status.getBackupMastersCount());
    assertEquals(0, status.getMasterCoprocessorsCount());
    assertEquals(0, status.getUnknownServersCount());
    assertEquals(
        List.of("hbase:meta", "default:t", "default:u"),
        status.getTableRegionStatesCountList().stream()
            .map(
                count ->
                    count.getTableName().getNamespace().toStringUtf8()
                        + ":"
                        + count.getTableName().getQualifier().toStringUtf8())
            .toList());
    for (TableRegionStatesCount count : status.getTableRegionStatesCountList()) {
      assertEquals(1, count.getRegionStatesCount().getOpenRegions());
      assertEquals(1, count.getRegionStatesCount().getTotalRegions());
    }
  }

  @Test
  void aRequestWithOptionsGetsOnlyTheirParts() throws IOException {
    ClusterStatus live = status(Option.LIVE_SERVERS);
    assertEquals(1, live.getLiveServersCount());
    assertFalse(live.hasHbaseVersion());
    assertFalse(live.hasClusterId());
    assertFalse(live.hasMaster());
    assertFalse(live.hasBalancerOn());
    assertFalse(live.hasMasterInfoPort());
    assertEquals(0, live.getServersNameCount());
    assertEquals(0, live.getTableRegionStatesCountCount());

    ClusterStatus idAndVersion = status(Option.CLUSTER_ID, Option.HBASE_VERSION);
    assertEquals(server.clusterId(), idAndVersion.getClusterId().getClusterId());
    assertTrue(idAndVersion.hasHbaseVersion());
    assertEquals(0, idAndVersion.getLiveServersCount());
    assertFalse(idAndVersion.hasMaster());

    ClusterStatus names = status(Option.SERVERS_NAME);
    assertEquals(List.of(server.identity().toProto()), names.getServersNameList());
    assertEquals(0, names.getLiveServersCount());

    assertEquals(1, status(Option.TASKS).getLiveServersCount(), "as HBase: tasks travel in loads");
  }

  @Test
  void theServerLoadCountsRequestsAndItsReportsFollowEachOther() throws IOException {
    ServerLoad first = status(Option.LIVE_SERVERS).getLiveServers(0).getServerLoad();
    assertEquals(server.identity().startCode(), first.getReportStartTime());
    assertTrue(first.getReportEndTime() >= first.getReportStartTime());
    assertTrue(first.getMaxHeapMB() > 0);
    assertTrue(first.getUsedHeapMB() > 0 && first.getUsedHeapMB() <= first.getMaxHeapMB());
    assertEquals(
        server.database().infoServerAddress().orElseThrow().getPort(), first.getInfoServerPort());
    assertEquals(3, first.getRegionLoadsCount(), "hbase:meta, t and u");

    for (int i = 0; i < 5; i++) {
      get("t", "row-0-" + i);
    }
    put("t", "new");
    ServerLoad second = status(Option.LIVE_SERVERS).getLiveServers(0).getServerLoad();
    assertEquals(first.getTotalNumberOfRequests() + 6, second.getTotalNumberOfRequests());
    assertEquals(first.getReportEndTime(), second.getReportStartTime());
    long window = Math.max(1, second.getReportEndTime() - second.getReportStartTime());
    assertEquals(6 * 1000 / window, second.getNumberOfRequests());
  }

  @Test
  void regionLoadsCarryTheEnginesFigures() throws IOException {
    List<RegionLoad> loads = regionLoads(null);
    assertEquals(
        List.of(
            "hbase:meta,,1",
            new String(server.catalog().byName("t").regionName(), StandardCharsets.UTF_8),
            new String(server.catalog().byName("u").regionName(), StandardCharsets.UTF_8)),
        loads.stream().map(load -> load.getRegionSpecifier().getValue().toStringUtf8()).toList());
    for (RegionLoad load : loads) {
      assertEquals(
          HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME,
          load.getRegionSpecifier().getType());
      assertEquals(1.0f, load.getDataLocality(), "a local disk");
    }

    RegionStats t = stats("t");
    RegionLoad load = named(loads, server.catalog().byName("t").regionName());
    assertEquals(2, load.getStores());
    assertEquals(1, load.getStorefiles(), "f's major-compacted file; g has none");
    assertEquals(t.storeFiles(), load.getStorefiles());
    assertEquals(roundedUp(t.storeFileBytes(), 1 << 20), load.getStorefileSizeMB());
    assertEquals(1, load.getStorefileSizeMB(), "a few KB round up to 1 MB, as HBase rounds");
    assertEquals(roundedUp(t.uncompressedBytes(), 1 << 20), load.getStoreUncompressedSizeMB());
    assertEquals(0, load.getMemStoreSizeMB());
    assertTrue(t.rootIndexBytes() > 0 && t.indexBytes() > 0);
    assertEquals(roundedUp(t.rootIndexBytes(), 1024), load.getRootIndexSizeKB());
    assertEquals(load.getRootIndexSizeKB(), load.getStorefileIndexSizeKB());
    assertEquals(roundedUp(t.indexBytes(), 1024), load.getTotalStaticIndexSizeKB());
    assertEquals(roundedUp(t.bloomBytes(), 1024), load.getTotalStaticBloomSizeKB());
    assertTrue(
        load.getLastMajorCompactionTs() > 0
            && load.getLastMajorCompactionTs() <= System.currentTimeMillis());
    assertEquals(t.flushedWalId(), load.getCompleteSequenceId());
    assertTrue(load.getCompleteSequenceId() > 0);
    assertEquals(
        List.of("f", "g"),
        load.getStoreCompleteSequenceIdList().stream()
            .map(id -> id.getFamilyName().toStringUtf8())
            .toList());
    assertEquals(0, load.getReadRequestsCount());
    assertEquals(
        0,
        load.getWriteRequestsCount(),
        "the rows written before the server started"
            + " were counted by the database that wrote them, which closed");

    RegionLoad meta = named(loads, RegionNames.META_REGION_NAME);
    assertEquals(0, meta.getStores());
    assertEquals(0, meta.getStorefiles());
    long metaReads = meta.getReadRequestsCount();
    client.call(
        "Get",
        ClientProtos.GetRequest.newBuilder()
            .setRegion(
                HBaseProtos.RegionSpecifier.newBuilder()
                    .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                    .setValue(ByteString.copyFrom(RegionNames.META_REGION_NAME)))
            .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFromUtf8("t")))
            .build(),
        null);
    assertFalse(client.read().header().hasException());
    assertEquals(
        metaReads + 1, regionLoads(tableName("hbase", "meta")).get(0).getReadRequestsCount());

    get("t", "row-0-1");
    get("t", "row-1-1");
    get("t", "absent");
    put("t", "new");
    load = regionLoads(tableName("default", "t")).get(0);
    assertEquals(3, load.getReadRequestsCount(), "one per Get, found or not");
    assertEquals(1, load.getWriteRequestsCount());
    assertEquals(1, load.getMemStoreSizeMB(), "a put waits in the MemStore: under 1 MB is 1");

    server.database().admin().flush("t");
    load = regionLoads(tableName("default", "t")).get(0);
    assertEquals(0, load.getMemStoreSizeMB());
    assertEquals(2, load.getStorefiles(), "the flush wrote f's second file");
    assertTrue(load.getCompleteSequenceId() > t.flushedWalId());
  }

  @Test
  void aDisabledTableHasNoLoadAndItsRegionIsClosed() throws Exception {
    Catalog catalog = server.catalog();
    catalog.setEnabled("u", false);
    assertEquals(List.of(), regionLoads(tableName("default", "u")));
    assertEquals(2, regionLoads(null).size(), "hbase:meta and t");
    assertEquals(List.of(), regionLoads(tableName("default", "nosuch")));
    TableRegionStatesCount u =
        status(Option.TABLE_TO_REGIONS_COUNT).getTableRegionStatesCountList().stream()
            .filter(count -> count.getTableName().getQualifier().toStringUtf8().equals("u"))
            .findFirst()
            .orElseThrow();
    assertEquals(0, u.getRegionStatesCount().getOpenRegions());
    assertEquals(1, u.getRegionStatesCount().getClosedRegions());
    assertEquals(
        2, status(Option.LIVE_SERVERS).getLiveServers(0).getServerLoad().getRegionLoadsCount());
  }
}
