package dev.cellar.client;

import dev.cellar.Result;
import dev.cellar.TableNotFoundException;
import dev.cellar.cell.Cell;
import dev.cellar.client.rpc.RpcClient;
import dev.cellar.client.rpc.RpcResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * Finds and caches the regions of each table, whose names requests carry: a lookup reads every
 * region row of the table in hbase:meta (a forward scan from {@code "<table>,,"} to {@code "<table>
 * ,,"}, family {@code info}, as many calls as it takes) and keeps each row's key, the region's
 * name, with the keys of its {@code info:regioninfo} ({@code "PBUF"} + HBase's RegionInfo, checked
 * to belong to the table), in key order. A Cellar server serves every region of its tables, so the
 * whole table is read at once. A table's regions stay cached until a request is refused with
 * NotServingRegionException (the table was dropped and created again), when {@link #forget} drops
 * them.
 *
 * <p>Thread-safe: the cache is a concurrent map of immutable lists; two threads may look the same
 * table up at once, and either answer is right.
 */
final class RegionLocator {

  /**
   * One region of a table.
   *
   * @param name the region name requests carry
   * @param startKey its first row, empty for the table's first region
   * @param endKey the row after its last, empty for the table's last region
   * @param regionId the region's id
   */
  record Located(byte[] name, byte[] startKey, byte[] endKey, long regionId) {

    boolean containsRow(byte[] row) {
      return Arrays.compareUnsigned(row, startKey) >= 0
          && (endKey.length == 0 || Arrays.compareUnsigned(row, endKey) < 0);
    }
  }

  static final byte[] META_REGION = "hbase:meta,,1".getBytes(StandardCharsets.UTF_8);
  private static final byte[] INFO = "info".getBytes(StandardCharsets.UTF_8);
  private static final byte[] REGION_INFO = "regioninfo".getBytes(StandardCharsets.UTF_8);
  private static final byte[] PBUF = "PBUF".getBytes(StandardCharsets.UTF_8);
  private static final int ROWS_PER_CALL = 1000;

  private final RpcClient rpc;
  private final ClientSettings settings;
  private final Map<String, List<Located>> regions = new ConcurrentHashMap<>();

  RegionLocator(RpcClient rpc, ClientSettings settings) {
    this.rpc = rpc;
    this.settings = settings;
  }

  /**
   * The regions of {@code table}, in key order.
   *
   * @throws TableNotFoundException if the server has no such table
   */
  List<Located> regions(String table) throws IOException {
    List<Located> cached = regions.get(table);
    if (cached != null) {
      return cached;
    }
    List<Located> found = lookUp(table);
    regions.put(table, found);
    return found;
  }

  /** The name of the region of {@code table} holding {@code row}. */
  byte[] region(String table, byte[] row) throws IOException {
    return locate(table, row).name();
  }

  /** The name of the region of {@code table} holding {@code row}, without copying the row. */
  byte[] region(String table, ByteString row) throws IOException {
    List<Located> all = regions(table);
    for (int i = all.size() - 1; i > 0; i--) {
      if (compare(all.get(i).startKey(), row) <= 0) {
        return all.get(i).name();
      }
    }
    return all.getFirst().name();
  }

  /** The region of {@code table} holding {@code row}. */
  Located locate(String table, byte[] row) throws IOException {
    List<Located> all = regions(table);
    for (int i = all.size() - 1; i > 0; i--) {
      if (Arrays.compareUnsigned(all.get(i).startKey(), row) <= 0) {
        return all.get(i);
      }
    }
    return all.getFirst();
  }

  private static int compare(byte[] left, ByteString right) {
    int length = Math.min(left.length, right.size());
    for (int i = 0; i < length; i++) {
      int order = Integer.compare(left[i] & 0xff, right.byteAt(i) & 0xff);
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(left.length, right.size());
  }

  /** The last region of {@code table}, where a reversed scan from the table's end starts. */
  Located last(String table) throws IOException {
    return regions(table).getLast();
  }

  /**
   * The region of {@code table} after {@code region} (before it, {@code reversed}), or null at the
   * table's end.
   */
  Located next(String table, Located region, boolean reversed) throws IOException {
    if (reversed) {
      if (region.startKey().length == 0) {
        return null;
      }
      for (Located candidate : regions(table)) {
        if (Arrays.equals(candidate.endKey(), region.startKey())) {
          return candidate;
        }
      }
      return locate(table, region.startKey());
    }
    return region.endKey().length == 0 ? null : locate(table, region.endKey());
  }

  /** Drops the cached regions of {@code table}. */
  void forget(String table) {
    regions.remove(table);
  }

  private List<Located> lookUp(String table) throws IOException {
    List<Located> found = new ArrayList<>();
    ClientProtos.ScanRequest request =
        ClientProtos.ScanRequest.newBuilder()
            .setRegion(Protos.region(META_REGION))
            .setScan(
                ClientProtos.Scan.newBuilder()
                    .addColumn(ClientProtos.Column.newBuilder().setFamily(Protos.bytes(INFO)))
                    .setStartRow(Protos.bytes((table + ",,").getBytes(StandardCharsets.UTF_8)))
                    .setStopRow(Protos.bytes((table + " ,,").getBytes(StandardCharsets.UTF_8)))
                    .setMaxVersions(1)
                    .setCaching(ROWS_PER_CALL))
            .setNumberOfRows(ROWS_PER_CALL)
            .setCloseScanner(false)
            .setClientHandlesPartials(true)
            .build();
    long callSeq = 0;
    while (true) {
      ClientProtos.ScanResponse scan = read(table, request, found);
      if (!scan.getMoreResultsInRegion() || !scan.getMoreResults() || !scan.hasScannerId()) {
        break;
      }
      request =
          ClientProtos.ScanRequest.newBuilder()
              .setScannerId(scan.getScannerId())
              .setNumberOfRows(ROWS_PER_CALL)
              .setNextCallSeq(++callSeq)
              .setClientHandlesPartials(true)
              .build();
    }
    if (found.isEmpty()) {
      throw new TableNotFoundException(table);
    }
    return List.copyOf(found);
  }

  /** Sends one call of the meta scan and adds the regions it returned to {@code found}. */
  private ClientProtos.ScanResponse read(
      String table, ClientProtos.ScanRequest request, List<Located> found) throws IOException {
    RpcResponse<ClientProtos.ScanResponse> response =
        Retrier.await(
            rpc.call(
                "ClientService",
                "Scan",
                request,
                null,
                ClientProtos.ScanResponse.parser(),
                settings.rpcTimeoutMillis()));
    try (ResponseCells cells = new ResponseCells(response.cells())) {
      ClientProtos.ScanResponse scan = response.message();
      for (int i = 0; i < scan.getCellsPerResultCount(); i++) {
        try (Result row = cells.next(scan.getCellsPerResult(i))) {
          found.add(located(table, row));
        }
      }
      return scan;
    }
  }

  private static Located located(String table, Result row) throws IOException {
    Cell info = row.latestCell(INFO, REGION_INFO);
    if (info == null) {
      throw new TableNotFoundException(table);
    }
    byte[] value = info.valueArray();
    if (value.length < PBUF.length || !Arrays.equals(value, 0, PBUF.length, PBUF, 0, PBUF.length)) {
      throw new IOException(
          "hbase:meta row "
              + new String(row.row(), StandardCharsets.UTF_8)
              + ": info:regioninfo lacks its PBUF prefix");
    }
    HBaseProtos.RegionInfo region =
        HBaseProtos.RegionInfo.parseFrom(Arrays.copyOfRange(value, PBUF.length, value.length));
    if (!Schemas.name(region.getTableName()).equals(table)) {
      throw new TableNotFoundException(table);
    }
    return new Located(
        row.row(),
        region.getStartKey().toByteArray(),
        region.getEndKey().toByteArray(),
        region.getRegionId());
  }
}
