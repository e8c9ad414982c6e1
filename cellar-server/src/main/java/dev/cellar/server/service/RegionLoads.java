package dev.cellar.server.service;

import dev.cellar.Cellar;
import dev.cellar.metrics.RegionStats;
import dev.cellar.server.catalog.Catalog;
import dev.cellar.server.catalog.RegionNames;
import dev.cellar.server.catalog.SchemaMapping;
import dev.cellar.spi.Engine;
import dev.cellar.spi.EngineAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.StoreSequenceId;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * HBase's {@code RegionLoad} of each region this server serves, as its region server reports them
 * in {@code GetRegionLoad} and, inside its server load, in {@code GetClusterStatus}: the regions of
 * the enabled tables and hbase:meta's, ordered by region name. A disabled table's region is not
 * served (requests get TableNotEnabledException), so, as in HBase, it has no load.
 *
 * <p><b>A table's region.</b> Every figure is the engine's ({@link Engine#regionStats}), taken when
 * asked; sizes are rounded as HBase's region server rounds them: 0 stays 0, anything below the unit
 * is 1, the rest is rounded down.
 *
 * <table>
 *   <caption>RegionLoad fields filled, and from what</caption>
 *   <tr><th>field (number)</th><th>unit</th><th>figure</th></tr>
 *   <tr><td>region_specifier (1)</td><td></td><td>{@code REGION_NAME}, the name hbase:meta
 *       lists ({@link RegionNames})</td></tr>
 *   <tr><td>stores (2), storefiles (3)</td><td>count</td><td>families, store files</td></tr>
 *   <tr><td>store_uncompressed_size_MB (4)</td><td>MB</td><td>the files' blocks before
 *       compression (their trailers)</td></tr>
 *   <tr><td>storefile_size_MB (5), region_size_MB (28)</td><td>MB</td><td>the files' bytes on
 *       disk</td></tr>
 *   <tr><td>mem_store_size_MB (6)</td><td>MB</td><td>the MemStores' data bytes</td></tr>
 *   <tr><td>storefile_index_size_KB (7), root_index_size_KB (12)</td><td>KB</td><td>what the
 *       files' index roots hold on the heap (HBase fills both with that figure)</td></tr>
 *   <tr><td>read_requests_count (8), write_requests_count (9)</td><td>count</td><td>rows read
 *       by Gets and scans, rows written, since the table was opened</td></tr>
 *   <tr><td>total_static_index_size_KB (13)</td><td>KB</td><td>the files' whole data indexes,
 *       uncompressed</td></tr>
 *   <tr><td>total_static_bloom_size_KB (14)</td><td>KB</td><td>the files' general blooms</td></tr>
 *   <tr><td>complete_sequence_id (15), store_complete_sequence_id (18)</td><td>log id</td>
 *       <td>up to which every edit of the region, and of each family, is in its files</td></tr>
 *   <tr><td>data_locality (16)</td><td>ratio</td><td>1.0 when the database is on a local disk
 *       (every block is on this host); left out on another file system, whose block placement
 *       the server does not know (the client reads 0.0)</td></tr>
 *   <tr><td>last_major_compaction_ts (17)</td><td>ms</td><td>when the oldest file a major
 *       compaction wrote was written; 0 if none</td></tr>
 * </table>
 *
 * Left out, as Cellar does not know them: compaction progress (10, 11), filtered read requests
 * (19), store reference counts (21, 22), SSD locality and block weights (23 to 26), the compaction
 * state (27), the cached ratio (29).
 *
 * <p><b>hbase:meta's region</b> ({@code hbase:meta,,1}) is made from the catalog at each read and
 * has no stores, files or MemStore: those figures are 0, its read requests are the meta rows read
 * ({@code MetaReads}), its writes 0 (clients do not write it), and it has no sequence ids.
 *
 * <p>Thread-safe: the catalog and the engine are.
 */
public final class RegionLoads {

  static final int KB = 1024;
  static final int MB = 1024 * 1024;
  private static final ByteString META_REGION = ByteString.copyFrom(RegionNames.META_REGION_NAME);
  private static final HBaseProtos.TableName META_TABLE =
      HBaseProtos.TableName.newBuilder()
          .setNamespace(ByteString.copyFromUtf8("hbase"))
          .setQualifier(ByteString.copyFromUtf8("meta"))
          .build();

  private final Engine engine;
  private final Catalog catalog;
  private final LongSupplier metaRowsRead;
  private final boolean dataIsLocal;

  /**
   * @param metaRowsRead the rows of hbase:meta read so far
   * @param dataIsLocal whether the database's files are on a local disk
   */
  public RegionLoads(
      Cellar cellar, Catalog catalog, LongSupplier metaRowsRead, boolean dataIsLocal) {
    this.engine = EngineAccess.engine(cellar);
    this.catalog = catalog;
    this.metaRowsRead = metaRowsRead;
    this.dataIsLocal = dataIsLocal;
  }

  /** hbase:meta's table name. */
  static HBaseProtos.TableName metaTable() {
    return META_TABLE;
  }

  /** The load of every region served, by region name. */
  List<RegionLoad> all() {
    List<RegionLoad> loads = new ArrayList<>();
    loads.add(meta());
    for (Catalog.Entry entry : catalog.entries()) {
      loads.addAll(table(entry));
    }
    loads.sort(
        (a, b) ->
            ByteString.unsignedLexicographicalComparator()
                .compare(a.getRegionSpecifier().getValue(), b.getRegionSpecifier().getValue()));
    return loads;
  }

  /**
   * The load of the regions of the table {@code name} served: hbase:meta's for hbase:meta, the
   * table's one region if it is served, else none (no such table, or disabled).
   */
  List<RegionLoad> of(HBaseProtos.TableName name) {
    if (name.equals(META_TABLE)) {
      return List.of(meta());
    }
    Catalog.Entry entry = catalog.byName(SchemaMapping.tableName(name));
    return entry == null ? List.of() : table(entry);
  }

  private RegionLoad meta() {
    RegionLoad.Builder load =
        RegionLoad.newBuilder()
            .setRegionSpecifier(specifier(META_REGION))
            .setStores(0)
            .setStorefiles(0)
            .setStoreUncompressedSizeMB(0)
            .setStorefileSizeMB(0)
            .setMemStoreSizeMB(0)
            .setStorefileIndexSizeKB(0)
            .setRootIndexSizeKB(0)
            .setTotalStaticIndexSizeKB(0)
            .setTotalStaticBloomSizeKB(0)
            .setReadRequestsCount(metaRowsRead.getAsLong())
            .setWriteRequestsCount(0)
            .setLastMajorCompactionTs(0)
            .setRegionSizeMB(0);
    if (dataIsLocal) {
      load.setDataLocality(1.0f);
    }
    return load.build();
  }

  /**
   * The load of each of {@code entry}'s regions, in key order; none if the table is not served or
   * the engine's regions are not the catalog's (a table dropped meanwhile).
   */
  private List<RegionLoad> table(Catalog.Entry entry) {
    if (!entry.enabled()) {
      return List.of();
    }
    List<RegionStats> stats = engine.regionStats(entry.name());
    if (stats.size() != entry.regions().size()) {
      return List.of();
    }
    List<RegionLoad> loads = new ArrayList<>(stats.size());
    for (int i = 0; i < stats.size(); i++) {
      loads.add(region(entry.regions().get(i), stats.get(i)));
    }
    return loads;
  }

  private RegionLoad region(Catalog.ServedRegion region, RegionStats stats) {
    int rootIndexKb = round(stats.rootIndexBytes(), KB);
    int fileMb = round(stats.storeFileBytes(), MB);
    RegionLoad.Builder load =
        RegionLoad.newBuilder()
            .setRegionSpecifier(specifier(ByteString.copyFrom(region.name())))
            .setStores(stats.stores())
            .setStorefiles(stats.storeFiles())
            .setStoreUncompressedSizeMB(round(stats.uncompressedBytes(), MB))
            .setStorefileSizeMB(fileMb)
            .setRegionSizeMB(fileMb)
            .setMemStoreSizeMB(round(stats.memStoreBytes(), MB))
            .setStorefileIndexSizeKB(rootIndexKb)
            .setRootIndexSizeKB(rootIndexKb)
            .setTotalStaticIndexSizeKB(round(stats.indexBytes(), KB))
            .setTotalStaticBloomSizeKB(round(stats.bloomBytes(), KB))
            .setReadRequestsCount(stats.readRequests())
            .setWriteRequestsCount(stats.writeRequests())
            .setLastMajorCompactionTs(stats.lastMajorCompactionMillis())
            .setCompleteSequenceId(stats.flushedWalId());
    for (Map.Entry<String, Long> family : stats.familyFlushedWalIds().entrySet()) {
      load.addStoreCompleteSequenceId(
          StoreSequenceId.newBuilder()
              .setFamilyName(ByteString.copyFromUtf8(family.getKey()))
              .setSequenceId(family.getValue()));
    }
    if (dataIsLocal) {
      load.setDataLocality(1.0f);
    }
    return load.build();
  }

  private static RegionSpecifier specifier(ByteString regionName) {
    return RegionSpecifier.newBuilder()
        .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(regionName)
        .build();
  }

  /**
   * {@code bytes} in {@code unit}s as HBase's region server rounds them: 0 for 0, 1 for anything
   * below one unit, else rounded down (and capped at {@link Integer#MAX_VALUE}).
   */
  static int round(long bytes, int unit) {
    if (bytes <= 0) {
      return 0;
    }
    if (bytes < unit) {
      return 1;
    }
    return (int) Math.min(bytes / unit, Integer.MAX_VALUE);
  }
}
