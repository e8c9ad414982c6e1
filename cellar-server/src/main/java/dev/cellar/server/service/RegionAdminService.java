package dev.cellar.server.service;

import dev.cellar.Cellar;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.rpc.RpcException;
import dev.cellar.server.rpc.RpcMethod;
import dev.cellar.server.rpc.RpcService;
import java.util.List;
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
    return new RpcService(
        NAME,
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

  private String table(HBaseProtos.RegionSpecifier region) throws RpcException {
    Catalog.Located located = catalog.byRegionName(region.getValue());
    if (located == null) {
      throw RpcException.notServingRegion(region.getValue().toStringUtf8());
    }
    return located.entry().name();
  }

  private FlushRegionResponse flush(FlushRegionRequest request) throws Exception {
    cellar.admin().flush(table(request.getRegion()));
    return FlushRegionResponse.newBuilder()
        .setLastFlushTime(System.currentTimeMillis())
        .setFlushed(true)
        .build();
  }

  private CompactRegionResponse compact(CompactRegionRequest request) throws Exception {
    String table = table(request.getRegion());
    if (request.hasFamily()) {
      throw RpcException.doNotRetry(
          "compacting one family is not supported by Cellar; compact" + " the table");
    }
    if (request.getMajor()) {
      cellar.admin().majorCompact(table);
    } else {
      cellar.admin().compact(table);
    }
    return CompactRegionResponse.getDefaultInstance();
  }
}
