package dev.cellar.server.service;

import dev.cellar.server.catalog.MetaTable;
import dev.cellar.server.catalog.ServerIdentity;
import dev.cellar.server.rpc.RpcMethod;
import dev.cellar.server.rpc.RpcService;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionLocation;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetActiveMasterRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetActiveMasterResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetBootstrapNodesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetBootstrapNodesResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMastersRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMastersResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMastersResponseEntry;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMetaRegionLocationsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMetaRegionLocationsResponse;

/**
 * {@code ClientMetaService}, what HBase's RpcConnectionRegistry asks before anything else: the
 * cluster id, the active master, where hbase:meta is and which servers to bootstrap from. This
 * server is all of them. Every answer is constant, so every method runs on the event loop.
 */
public final class RegistryService {

  public static final String NAME = "ClientMetaService";

  private RegistryService() {}

  // GetMasters is deprecated in HBase 2.6 and still asked by its 2.5 clients, so it is answered.
  @SuppressWarnings("deprecation")
  public static RpcService create(ServerIdentity server) {
    GetClusterIdResponse clusterId =
        GetClusterIdResponse.newBuilder().setClusterId(server.clusterId()).build();
    GetActiveMasterResponse master =
        GetActiveMasterResponse.newBuilder().setServerName(server.toProto()).build();
    GetMastersResponse masters =
        GetMastersResponse.newBuilder()
            .addMasterServers(
                GetMastersResponseEntry.newBuilder()
                    .setServerName(server.toProto())
                    .setIsActive(true))
            .build();
    GetMetaRegionLocationsResponse meta =
        GetMetaRegionLocationsResponse.newBuilder()
            .addMetaLocations(
                RegionLocation.newBuilder()
                    .setRegionInfo(MetaTable.metaRegionInfo())
                    .setServerName(server.toProto())
                    .setSeqNum(0))
            .build();
    GetBootstrapNodesResponse nodes =
        GetBootstrapNodesResponse.newBuilder().addServerName(server.toProto()).build();
    return UnservedMethods.service(
        NAME,
        RegistryProtos.ClientMetaService.getDescriptor(),
        List.of(
            RpcMethod.inline("GetClusterId", GetClusterIdRequest.parser(), (c, r) -> clusterId),
            RpcMethod.inline("GetActiveMaster", GetActiveMasterRequest.parser(), (c, r) -> master),
            RpcMethod.inline("GetMasters", GetMastersRequest.parser(), (c, r) -> masters),
            RpcMethod.inline(
                "GetMetaRegionLocations", GetMetaRegionLocationsRequest.parser(), (c, r) -> meta),
            RpcMethod.inline(
                "GetBootstrapNodes", GetBootstrapNodesRequest.parser(), (c, r) -> nodes)));
  }
}
