package dev.cellar.server.service;

import dev.cellar.Cellar;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.SchemaMapping;
import dev.cellar.server.catalog.ServerIdentity;
import dev.cellar.spi.EngineAccess;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos.ClusterId;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ClusterStatus;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.LiveServerInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.Option;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionStatesCount;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.TableRegionStatesCount;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FSProtos.HBaseVersionFileContent;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * The answer to {@code MasterService.GetClusterStatus} (HBase's {@code Admin.getClusterMetrics}): a
 * cluster of one server, which is its master and its one live region server.
 *
 * <p><b>Options.</b> The request lists the parts it wants; each part is filled only when asked, and
 * a request that lists none gets every part, as HBase's master answers (its 1.x clients send no
 * options). What each part holds:
 *
 * <table>
 *   <caption>ClusterStatus fields, by the option that asks for them</caption>
 *   <tr><th>option</th><th>field (number)</th><th>value</th></tr>
 *   <tr><td>HBASE_VERSION</td><td>hbase_version (1)</td><td>{@code {version}}: the build's
 *       version, as the info server's {@code /api/server} names it</td></tr>
 *   <tr><td>LIVE_SERVERS, TASKS</td><td>live_servers (2)</td><td>this server and its load
 *       ({@link ServerLoads}); HBase fills it for TASKS too, as a region server's tasks travel in
 *       its load</td></tr>
 *   <tr><td>DEAD_SERVERS</td><td>dead_servers (3)</td><td>none</td></tr>
 *   <tr><td>REGIONS_IN_TRANSITION</td><td>regions_in_transition (4)</td><td>none: every region
 *       is open from the start</td></tr>
 *   <tr><td>CLUSTER_ID</td><td>cluster_id (5)</td><td>{@code {cluster_id}}, the id the registry
 *       gives</td></tr>
 *   <tr><td>MASTER_COPROCESSORS</td><td>master_coprocessors (6)</td><td>none</td></tr>
 *   <tr><td>MASTER</td><td>master (7)</td><td>this server</td></tr>
 *   <tr><td>BACKUP_MASTERS</td><td>backup_masters (8)</td><td>none</td></tr>
 *   <tr><td>BALANCER_ON</td><td>balancer_on (9)</td><td>false: there is nothing to balance</td>
 *       </tr>
 *   <tr><td>MASTER_INFO_PORT</td><td>master_info_port (10)</td><td>the info server's port; left
 *       out without an info server (the client reads -1)</td></tr>
 *   <tr><td>SERVERS_NAME</td><td>servers_name (11)</td><td>this server</td></tr>
 *   <tr><td>TABLE_TO_REGIONS_COUNT</td><td>table_region_states_count (12)</td><td>per table and
 *       for hbase:meta: one region, open, or closed for a disabled table</td></tr>
 *   <tr><td>TASKS</td><td>master_tasks (13)</td><td>none: every master operation is done before
 *       its call returns</td></tr>
 *   <tr><td>UNKNOWN_SERVERS</td><td>unknown_servers (14)</td><td>none</td></tr>
 * </table>
 *
 * Empty repeated fields are simply absent on the wire, so the parts that are always empty cost
 * nothing whether asked or not. Thread-safe ({@link ServerLoads} serializes the loads).
 */
public final class ClusterStatusReport {

  private final Cellar cellar;
  private final Catalog catalog;
  private final ServerIdentity server;
  private final ServerLoads loads;
  private final String version;

  public ClusterStatusReport(
      Cellar cellar, Catalog catalog, ServerIdentity server, RegionLoads regions) {
    this.cellar = cellar;
    this.catalog = catalog;
    this.server = server;
    this.loads = new ServerLoads(cellar, regions, server.startCode(), System::currentTimeMillis);
    this.version = EngineAccess.engine(cellar).version();
  }

  /** The status with the parts {@code options} asks for (every part when it is empty). */
  ClusterStatus report(List<Option> options) {
    EnumSet<Option> wanted =
        options.isEmpty() ? EnumSet.allOf(Option.class) : EnumSet.copyOf(options);
    ClusterStatus.Builder status = ClusterStatus.newBuilder();
    HBaseProtos.ServerName name = server.toProto();
    if (wanted.contains(Option.HBASE_VERSION)) {
      status.setHbaseVersion(HBaseVersionFileContent.newBuilder().setVersion(version));
    }
    if (wanted.contains(Option.CLUSTER_ID)) {
      status.setClusterId(ClusterId.newBuilder().setClusterId(server.clusterId()));
    }
    if (wanted.contains(Option.MASTER)) {
      status.setMaster(name);
    }
    if (wanted.contains(Option.LIVE_SERVERS) || wanted.contains(Option.TASKS)) {
      status.addLiveServers(
          LiveServerInfo.newBuilder().setServer(name).setServerLoad(loads.report()));
    }
    if (wanted.contains(Option.BALANCER_ON)) {
      status.setBalancerOn(false);
    }
    if (wanted.contains(Option.MASTER_INFO_PORT)) {
      Optional<InetSocketAddress> info = cellar.infoServerAddress();
      info.ifPresent(address -> status.setMasterInfoPort(address.getPort()));
    }
    if (wanted.contains(Option.SERVERS_NAME)) {
      status.addServersName(name);
    }
    if (wanted.contains(Option.TABLE_TO_REGIONS_COUNT)) {
      status.addTableRegionStatesCount(regionCount(RegionLoads.metaTable(), true, 1));
      for (Catalog.Entry entry : catalog.entries()) {
        status.addTableRegionStatesCount(
            regionCount(
                SchemaMapping.protoName(entry.name()), entry.enabled(), entry.regions().size()));
      }
    }
    return status.build();
  }

  /** A table's {@code regions} regions: open, or closed when the table is disabled. */
  private static TableRegionStatesCount regionCount(
      HBaseProtos.TableName table, boolean open, int regions) {
    return TableRegionStatesCount.newBuilder()
        .setTableName(table)
        .setRegionStatesCount(
            RegionStatesCount.newBuilder()
                .setOpenRegions(open ? regions : 0)
                .setSplitRegions(0)
                .setClosedRegions(open ? 0 : regions)
                .setRegionsInTransition(0)
                .setTotalRegions(regions))
        .build();
  }
}
