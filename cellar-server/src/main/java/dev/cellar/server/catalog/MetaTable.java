package dev.cellar.server.catalog;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableState;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * hbase:meta as HBase's client reads it, made on demand from the {@link Catalog}: per table a state
 * row and a row per region, all sorted in hbase:meta's order ({@link MetaKeys}).
 *
 * <ul>
 *   <li>Row {@code <table>}: {@code table:state} = {@code TableState} (no magic prefix).
 *   <li>Row {@code <region name>} (see {@link RegionNames}), cells sorted by qualifier: {@code
 *       info:regioninfo} = {@code "PBUF"} + {@code RegionInfo}, {@code info:seqnumDuringOpen} =
 *       8-byte big-endian 1, {@code info:server} = {@code host:port}, {@code info:serverstartcode}
 *       = 8-byte big-endian start code, {@code info:state} = {@code OPEN}.
 * </ul>
 *
 * Every cell is a Put timestamped with the region id (the region's creation time). Stateless beyond
 * its two references; thread-safe.
 */
public final class MetaTable {

  public static final byte[] INFO = bytes("info");
  public static final byte[] TABLE = bytes("table");
  private static final byte[] STATE = bytes("state");
  private static final byte[] REGION_INFO = bytes("regioninfo");
  private static final byte[] SEQ_NUM = bytes("seqnumDuringOpen");
  private static final byte[] SERVER = bytes("server");
  private static final byte[] START_CODE = bytes("serverstartcode");
  private static final byte[] PBUF = bytes("PBUF");
  private static final byte[] OPEN = bytes("OPEN");

  /** One row of hbase:meta and its cells in KeyValue order. */
  public record Row(byte[] key, List<KeyValue> cells) {}

  private final Catalog catalog;
  private final ServerIdentity server;

  public MetaTable(Catalog catalog, ServerIdentity server) {
    this.catalog = catalog;
    this.server = server;
  }

  /** hbase:meta's region, as the registry hands it to clients. */
  public static HBaseProtos.RegionInfo metaRegionInfo() {
    return HBaseProtos.RegionInfo.newBuilder()
        .setRegionId(1)
        .setTableName(
            HBaseProtos.TableName.newBuilder()
                .setNamespace(ByteString.copyFromUtf8("hbase"))
                .setQualifier(ByteString.copyFromUtf8("meta")))
        .setStartKey(ByteString.EMPTY)
        .setEndKey(ByteString.EMPTY)
        .setOffline(false)
        .setSplit(false)
        .setReplicaId(0)
        .build();
  }

  /** Every row, in hbase:meta's order. */
  public List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    for (Catalog.Entry entry : catalog.entries()) {
      rows.add(stateRow(entry));
      for (Catalog.ServedRegion region : entry.regions()) {
        rows.add(regionRow(entry.name(), region));
      }
    }
    rows.sort((a, b) -> MetaKeys.compare(a.key(), b.key()));
    return rows;
  }

  /** The row {@code key}, or null. */
  public Row row(byte[] key) {
    for (Row row : rows()) {
      if (java.util.Arrays.equals(row.key(), key)) {
        return row;
      }
    }
    return null;
  }

  private static Row stateRow(Catalog.Entry entry) {
    byte[] key = bytes(entry.name());
    byte[] state =
        TableState.newBuilder()
            .setState(entry.enabled() ? TableState.State.ENABLED : TableState.State.DISABLED)
            .build()
            .toByteArray();
    return new Row(key, List.of(cell(key, TABLE, STATE, entry.regionId(), state)));
  }

  private Row regionRow(String table, Catalog.ServedRegion region) {
    byte[] key = region.name();
    byte[] info = region.regionInfo(table).toByteArray();
    byte[] regionInfo = new byte[PBUF.length + info.length];
    System.arraycopy(PBUF, 0, regionInfo, 0, PBUF.length);
    System.arraycopy(info, 0, regionInfo, PBUF.length, info.length);
    long ts = region.id();
    return new Row(
        key,
        List.of(
            cell(key, INFO, REGION_INFO, ts, regionInfo),
            cell(key, INFO, SEQ_NUM, ts, ByteBuffer.allocate(8).putLong(1).array()),
            cell(key, INFO, SERVER, ts, bytes(server.hostAndPort())),
            cell(
                key,
                INFO,
                START_CODE,
                ts,
                ByteBuffer.allocate(8).putLong(server.startCode()).array()),
            cell(key, INFO, STATE, ts, OPEN)));
  }

  private static KeyValue cell(byte[] row, byte[] family, byte[] qualifier, long ts, byte[] value) {
    return KeyValue.create(row, family, qualifier, ts, CellType.PUT, value);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
