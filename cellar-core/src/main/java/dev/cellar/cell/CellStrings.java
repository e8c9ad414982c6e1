package dev.cellar.cell;

/**
 * Renders cells the way HBase's {@code KeyValue.toString()} does, so that logs and tools of both
 * systems read alike. Stateless and thread-safe.
 *
 * <pre>
 *  row/family:qualifier/timestamp/Type/vlen=N/seqid=S
 *  r1/cf:q/1700000000000/Put/vlen=5/seqid=42
 *  r1//LATEST_TIMESTAMP/Minimum/vlen=0/seqid=0      (empty family and qualifier: no colon)
 * </pre>
 *
 * Row, family and qualifier go through {@link Bytes#toStringBinary}. The timestamps {@code
 * Long.MAX_VALUE} and {@code Long.MIN_VALUE} print as {@code LATEST_TIMESTAMP} and {@code
 * OLDEST_TIMESTAMP}. An unknown type code prints as {@code UnknownType(code)} rather than failing,
 * since printing is how a corrupt cell gets diagnosed.
 */
final class CellStrings {

  private CellStrings() {}

  static String toString(Cell cell) {
    StringBuilder out = new StringBuilder();
    out.append(Bytes.toStringBinary(cell.segment(), cell.rowOffset(), cell.rowLength()));
    out.append('/');
    if (cell.familyLength() > 0) {
      out.append(Bytes.toStringBinary(cell.segment(), cell.familyOffset(), cell.familyLength()));
      out.append(':');
    }
    out.append(
        Bytes.toStringBinary(cell.segment(), cell.qualifierOffset(), cell.qualifierLength()));
    out.append('/').append(timestamp(cell.timestamp()));
    out.append('/').append(type(cell.typeByte()));
    out.append("/vlen=").append(cell.valueLength());
    out.append("/seqid=").append(cell.sequenceId());
    return out.toString();
  }

  private static String timestamp(long timestamp) {
    if (timestamp == KeyValue.LATEST_TIMESTAMP) {
      return "LATEST_TIMESTAMP";
    }
    if (timestamp == KeyValue.OLDEST_TIMESTAMP) {
      return "OLDEST_TIMESTAMP";
    }
    return Long.toString(timestamp);
  }

  private static String type(byte code) {
    CellType type = CellType.find(code);
    return type == null ? "UnknownType(" + (code & 0xFF) + ")" : type.hbaseName();
  }
}
