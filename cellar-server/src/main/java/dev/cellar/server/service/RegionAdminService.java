package dev.cellar.server.service;

import dev.cellar.Cellar;
import dev.cellar.RegionInfo;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.rpc.RpcException;
import dev.cellar.server.rpc.RpcMethod;
import dev.cellar.server.rpc.RpcService;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.FlushRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.FlushRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionLoadRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionLoadResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * {@code AdminService}, HBase's region server administration, for what Cellar's client and HBase's
 * {@code Admin.flush}/{@code compact}/{@code majorCompact} ask of a region: {@code FlushRegion}
 * writes the table's MemStores to files, {@code CompactRegion} runs a minor or major compaction;
 * both finish before the call returns (on a handler thread). A compaction of one family is refused
 * (Cellar compacts a table's families together). {@code GetRegionLoad} ({@code
 * Admin.getRegionMetrics}) answers the loads of the regions served, or of one table's ({@link
 * RegionLoads}); like HBase's, for a table it does not serve it answers none. Thread-safe (the
 * catalog and the database are).
 */
public final class RegionAdminService {

  public static final String NAME = "AdminService";

  private final Cellar cellar;
  private final Catalog catalog;

  private RegionAdminService(Cellar cellar, Catalog catalog) {
    this.cellar = cellar;
    this.catalog = catalog;
  }

  /** The service over {@code cellar}'s tables; region loads come from {@code loads}. */
  public static RpcService create(Cellar cellar, Catalog catalog, RegionLoads loads) {
    RegionAdminService admin = new RegionAdminService(cellar, catalog);
    return UnservedMethods.service(
        NAME,
        AdminProtos.AdminService.getDescriptor(),
        List.of(
            RpcMethod.of(
                "GetRegionLoad",
                GetRegionLoadRequest.parser(),
                (c, r) ->
                    GetRegionLoadResponse.newBuilder()
                        .addAllRegionLoads(
                            r.hasTableName() ? loads.of(r.getTableName()) : loads.all())
                        .build()),
            RpcMethod.of("FlushRegion", FlushRegionRequest.parser(), (c, r) -> admin.flush(r)),
            RpcMethod.of(
                "CompactRegion", CompactRegionRequest.parser(), (c, r) -> admin.compact(r))));
  }

  /**
   * The database's name of the region {@code region} names: the served regions and the database's
   * are the same regions in the same order, though a table the database keeps whole is served under
   * the catalog's id.
   */
  private byte[] regionName(HBaseProtos.RegionSpecifier region) throws Exception {
    Catalog.Located located = catalog.byRegionName(region.getValue());
    if (located == null) {
      throw RpcException.notServingRegion(region.getValue().toStringUtf8());
    }
    int index = located.entry().regions().indexOf(located.region());
    List<RegionInfo> regions = cellar.admin().regions(located.entry().name());
    if (index < 0 || index >= regions.size()) {
      throw RpcException.notServingRegion(region.getValue().toStringUtf8());
    }
    return regions.get(index).regionName();
  }

  private FlushRegionResponse flush(FlushRegionRequest request) throws Exception {
    cellar.admin().flushRegion(regionName(request.getRegion()));
    return FlushRegionResponse.newBuilder()
        .setLastFlushTime(System.currentTimeMillis())
        .setFlushed(true)
        .build();
  }

  private CompactRegionResponse compact(CompactRegionRequest request) throws Exception {
    byte[] region = regionName(request.getRegion());
    if (request.hasFamily()) {
      throw RpcException.doNotRetry(
          "compacting one family is not supported by Cellar; compact" + " the region");
    }
    cellar.admin().compactRegion(region, request.getMajor());
    return CompactRegionResponse.getDefaultInstance();
  }
}
