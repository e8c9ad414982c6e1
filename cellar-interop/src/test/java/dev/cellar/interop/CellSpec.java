package dev.cellar.interop;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.ExtendedCell;
import org.apache.hadoop.hbase.PrivateCellUtil;

/**
 * One cell as plain data, the common currency between HBase's and Cellar's sides of the interop
 * tests: everything a cell holds, compared field by field (arrays by content).
 *
 * @param row the row
 * @param family the column family
 * @param qualifier the column qualifier
 * @param timestamp the timestamp
 * @param type HBase's KeyValue type code ({@link CellType#code()})
 * @param value the value
 * @param tags the serialized tags without the tags-length prefix, as HBase's {@code cloneTags}
 *     returns them; empty for a cell without tags
 * @param sequenceId the sequence id (mvcc write number); 0 when the file carries none
 */
public record CellSpec(
    byte[] row,
    byte[] family,
    byte[] qualifier,
    long timestamp,
    byte type,
    byte[] value,
    byte[] tags,
    long sequenceId) {

  /** Copies a cell read by HBase, wherever its bytes live. */
  public static CellSpec fromHBase(org.apache.hadoop.hbase.Cell cell) {
    ExtendedCell extended = (ExtendedCell) cell;
    return new CellSpec(
        CellUtil.cloneRow(cell),
        CellUtil.cloneFamily(cell),
        CellUtil.cloneQualifier(cell),
        cell.getTimestamp(),
        extended.getTypeByte(),
        CellUtil.cloneValue(cell),
        PrivateCellUtil.cloneTags(cell),
        extended.getSequenceId());
  }

  /** Copies a cell read by Cellar, wherever its bytes live. */
  public static CellSpec fromCellar(Cell cell) {
    return new CellSpec(
        cell.rowArray(),
        cell.familyArray(),
        cell.qualifierArray(),
        cell.timestamp(),
        cell.typeByte(),
        cell.valueArray(),
        cell.tagsArray(),
        cell.sequenceId());
  }

  /** Builds HBase's {@code KeyValue} for this cell, with its sequence id set. */
  public org.apache.hadoop.hbase.KeyValue toHBase() {
    org.apache.hadoop.hbase.KeyValue kv =
        new org.apache.hadoop.hbase.KeyValue(
            row,
            family,
            qualifier,
            timestamp,
            org.apache.hadoop.hbase.KeyValue.Type.codeToType(type),
            value,
            tags);
    kv.setSequenceId(sequenceId);
    return kv;
  }

  /** Builds Cellar's {@link KeyValue} for this cell, with its sequence id set. */
  public KeyValue toCellar() {
    return KeyValue.create(
            row,
            family,
            qualifier,
            timestamp,
            CellType.fromCode(type),
            value,
            Tag.decodeAll(MemorySegment.ofArray(tags), 0, tags.length))
        .withSequenceId(sequenceId);
  }

  /**
   * Returns this cell as a file written with these switches gives it back: without tags when the
   * file has none, and with sequence id 0 when it carries no mvcc.
   */
  public CellSpec storedAs(boolean includesTags, boolean includesMvcc) {
    return new CellSpec(
        row,
        family,
        qualifier,
        timestamp,
        type,
        value,
        includesTags ? tags : new byte[0],
        includesMvcc ? sequenceId : 0);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CellSpec that
        && Arrays.equals(row, that.row)
        && Arrays.equals(family, that.family)
        && Arrays.equals(qualifier, that.qualifier)
        && timestamp == that.timestamp
        && type == that.type
        && Arrays.equals(value, that.value)
        && Arrays.equals(tags, that.tags)
        && sequenceId == that.sequenceId;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        Arrays.hashCode(row),
        Arrays.hashCode(family),
        Arrays.hashCode(qualifier),
        timestamp,
        type,
        Arrays.hashCode(value),
        Arrays.hashCode(tags),
        sequenceId);
  }

  @Override
  public String toString() {
    HexFormat hex = HexFormat.of();
    return "CellSpec[row="
        + hex.formatHex(row)
        + ", family="
        + hex.formatHex(family)
        + ", qualifier="
        + hex.formatHex(qualifier)
        + ", timestamp="
        + timestamp
        + ", type="
        + (type & 0xFF)
        + ", value="
        + hex.formatHex(value)
        + ", tags="
        + hex.formatHex(tags)
        + ", sequenceId="
        + sequenceId
        + "]";
  }
}
