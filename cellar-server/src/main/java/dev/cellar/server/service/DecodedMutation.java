package dev.cellar.server.service;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import dev.cellar.server.rpc.CellBlockReader;
import dev.cellar.server.rpc.MalformedCellBlockException;
import dev.cellar.server.rpc.RpcException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto.ColumnValue;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto.ColumnValue.QualifierValue;

/**
 * One mutation of a request, with its cells gathered from wherever the client put them: inside the
 * message ({@code column_value}, as single puts and atomic batches send them) or in the request's
 * cell block ({@code associated_cell_count} cells, in order, as batches send them). Timestamps the
 * client left unset are {@link KeyValue#LATEST_TIMESTAMP} ("now").
 */
record DecodedMutation(
    MutationProto.MutationType type,
    byte[] row,
    List<Column> columns,
    long timestamp,
    Durability durability) {

  /** One column of the mutation: for a delete its marker type, for a put the value. */
  record Column(byte[] family, byte[] qualifier, long timestamp, CellType type, byte[] value) {}

  /**
   * Reads the mutation, consuming exactly its associated cells from {@code cells} even when it
   * turns out invalid, so that the next mutation of a batch starts at its own cells.
   */
  static DecodedMutation decode(MutationProto proto, CellBlockReader cells)
      throws RpcException, MalformedCellBlockException {
    List<Column> columns = new ArrayList<>();
    byte[] row = proto.hasRow() ? proto.getRow().toByteArray() : null;
    RpcException invalid = null;
    for (int i = 0; i < proto.getAssociatedCellCount(); i++) {
      if (!cells.advance()) {
        throw new MalformedCellBlockException(
            "the request's cell block ended before mutation"
                + " cell "
                + (i + 1)
                + " of "
                + proto.getAssociatedCellCount());
      }
      if (row == null) {
        row = cells.row();
      } else if (!cells.rowEquals(row)) {
        invalid =
            RpcException.doNotRetry(
                "a mutation of row "
                    + printable(row)
                    + " carries a cell of row "
                    + printable(cells.row()));
        continue;
      }
      CellType type;
      try {
        type = CellType.fromCode(cells.typeByte());
      } catch (IllegalArgumentException e) {
        invalid =
            RpcException.doNotRetry("cell type " + cells.typeByte() + " is not a" + " mutation's");
        continue;
      }
      columns.add(
          new Column(cells.family(), cells.qualifier(), cells.timestamp(), type, cells.value()));
    }
    if (invalid != null) {
      throw invalid;
    }
    long timestamp = proto.hasTimestamp() ? proto.getTimestamp() : KeyValue.LATEST_TIMESTAMP;
    for (ColumnValue column : proto.getColumnValueList()) {
      byte[] family = column.getFamily().toByteArray();
      if (column.getQualifierValueCount() == 0
          && proto.getMutateType() == MutationProto.MutationType.DELETE) {
        columns.add(new Column(family, new byte[0], timestamp, CellType.DELETE_FAMILY, null));
      }
      for (QualifierValue value : column.getQualifierValueList()) {
        long ts = value.hasTimestamp() ? value.getTimestamp() : timestamp;
        CellType type =
            proto.getMutateType() == MutationProto.MutationType.DELETE
                ? deleteType(value)
                : CellType.PUT;
        columns.add(
            new Column(
                family,
                value.getQualifier().toByteArray(),
                ts,
                type,
                value.getValue().toByteArray()));
      }
    }
    if (row == null || row.length == 0) {
      throw RpcException.doNotRetry("a mutation needs a row key of at least one byte");
    }
    return new DecodedMutation(
        proto.getMutateType(), row, columns, timestamp, durability(proto.getDurability()));
  }

  private static CellType deleteType(QualifierValue value) {
    if (!value.hasDeleteType()) {
      return CellType.DELETE_COLUMN;
    }
    return switch (value.getDeleteType()) {
      case DELETE_ONE_VERSION -> CellType.DELETE;
      case DELETE_MULTIPLE_VERSIONS -> CellType.DELETE_COLUMN;
      case DELETE_FAMILY -> CellType.DELETE_FAMILY;
      case DELETE_FAMILY_VERSION -> CellType.DELETE_FAMILY_VERSION;
    };
  }

  private static Durability durability(MutationProto.Durability durability) {
    return switch (durability) {
      case USE_DEFAULT -> Durability.USE_DEFAULT;
      case SKIP_WAL -> Durability.SKIP_WAL;
      case ASYNC_WAL -> Durability.ASYNC_WAL;
      case SYNC_WAL -> Durability.SYNC_WAL;
      case FSYNC_WAL -> Durability.FSYNC_WAL;
    };
  }

  static String printable(byte[] bytes) {
    StringBuilder text = new StringBuilder();
    for (byte b : Arrays.copyOf(bytes, Math.min(bytes.length, 64))) {
      if (b >= 0x20 && b < 0x7f && b != '\\') {
        text.append((char) b);
      } else {
        text.append(String.format("\\x%02X", b & 0xff));
      }
    }
    return bytes.length > 64 ? text + "..." : text.toString();
  }
}
