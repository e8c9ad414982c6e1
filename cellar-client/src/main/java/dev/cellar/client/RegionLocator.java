package dev.cellar.client;

import dev.cellar.Result;
import dev.cellar.TableNotFoundException;
import dev.cellar.cell.Cell;
import dev.cellar.client.rpc.RpcClient;
import dev.cellar.client.rpc.RpcResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * Finds and caches the name of each table's region, which every request names. A Cellar server
 * holds one region per table, so a lookup reads the table's first region row of hbase:meta (a
 * forward scan from {@code "<table>,,"}, one row, family {@code info}) and takes its key, after
 * checking that its {@code info:regioninfo} ({@code "PBUF"} + HBase's RegionInfo) belongs to the
 * table. A name stays cached until a request is refused with NotServingRegionException (the table
 * was dropped and created again), when {@link #forget} drops it.
 *
 * <p>Thread-safe: the cache is a concurrent map; two threads may look the same table up at once,
 * and either answer is right.
 */
final class RegionLocator {

  static final byte[] META_REGION = "hbase:meta,,1".getBytes(StandardCharsets.UTF_8);
  private static final byte[] INFO = "info".getBytes(StandardCharsets.UTF_8);
  private static final byte[] REGION_INFO = "regioninfo".getBytes(StandardCharsets.UTF_8);
  private static final byte[] PBUF = "PBUF".getBytes(StandardCharsets.UTF_8);

  private final RpcClient rpc;
  private final ClientSettings settings;
  private final Map<String, byte[]> regions = new ConcurrentHashMap<>();

  RegionLocator(RpcClient rpc, ClientSettings settings) {
    this.rpc = rpc;
    this.settings = settings;
  }

  /** The region of {@code table}. @throws TableNotFoundException if the server has no such table */
  byte[] region(String table) throws IOException {
    byte[] cached = regions.get(table);
    if (cached != null) {
      return cached;
    }
    byte[] found = lookUp(table);
    regions.put(table, found);
    return found;
  }

  /** Drops the cached region of {@code table}. */
  void forget(String table) {
    regions.remove(table);
  }

  private byte[] lookUp(String table) throws IOException {
    ClientProtos.ScanRequest request =
        ClientProtos.ScanRequest.newBuilder()
            .setRegion(Protos.region(META_REGION))
            .setScan(
                ClientProtos.Scan.newBuilder()
                    .addColumn(ClientProtos.Column.newBuilder().setFamily(Protos.bytes(INFO)))
                    .setStartRow(Protos.bytes((table + ",,").getBytes(StandardCharsets.UTF_8)))
                    .setStopRow(Protos.bytes((table + " ,,").getBytes(StandardCharsets.UTF_8)))
                    .setMaxVersions(1)
                    .setCaching(1))
            .setNumberOfRows(1)
            .setLimitOfRows(1)
            .setCloseScanner(false)
            .setClientHandlesPartials(true)
            .build();
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
      if (scan.getCellsPerResultCount() == 0) {
        throw new TableNotFoundException(table);
      }
      try (Result row = cells.next(scan.getCellsPerResult(0))) {
        return regionName(table, row);
      }
    }
  }

  private static byte[] regionName(String table, Result row) throws IOException {
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
    return row.row();
  }
}
