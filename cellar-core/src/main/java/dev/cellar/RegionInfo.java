package dev.cellar;

import dev.cellar.cell.Bytes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One region of a table: the rows {@code [startKey, endKey)} (an empty start key is the table's
 * first row, an empty end key its last), with HBase's identity, so that HBase's clients compute the
 * same names Cellar does.
 *
 * <p><b>Names.</b> The region name is {@code <table>,<startKey>,<regionId>.<md5>.}, where {@code
 * <table>} is the table's name without the {@code default:} namespace, {@code <regionId>} the
 * decimal id (HBase uses the creation time in milliseconds, the same for every region of a new
 * table) and {@code <md5>} the lowercase hex MD5 of every byte before it: {@code
 * <table>,<startKey>,<regionId>}. That hex is the encoded name, which names the region's directory
 * and its entries in the write-ahead log. The start key is arbitrary bytes, so names are bytes.
 *
 * <p>Immutable: the keys are copied in and out.
 */
public final class RegionInfo {

  private final String table;
  private final byte[] startKey;
  private final byte[] endKey;
  private final long regionId;
  private final byte[] regionName;
  private final String encodedName;

  private RegionInfo(String table, byte[] startKey, byte[] endKey, long regionId) {
    if (startKey.length > 0 && endKey.length > 0 && Bytes.compare(startKey, endKey) >= 0) {
      throw new IllegalArgumentException(
          "region of "
              + table
              + ": start key "
              + Bytes.toStringBinary(startKey)
              + " is not before end key "
              + Bytes.toStringBinary(endKey));
    }
    this.table = table;
    this.startKey = startKey;
    this.endKey = endKey;
    this.regionId = regionId;
    ByteArrayOutputStream prefix = new ByteArrayOutputStream();
    prefix.writeBytes(table.getBytes(StandardCharsets.UTF_8));
    prefix.write(',');
    prefix.writeBytes(startKey);
    prefix.write(',');
    prefix.writeBytes(Long.toString(regionId).getBytes(StandardCharsets.US_ASCII));
    this.encodedName = HexFormat.of().formatHex(md5(prefix.toByteArray()));
    prefix.write('.');
    prefix.writeBytes(encodedName.getBytes(StandardCharsets.US_ASCII));
    prefix.write('.');
    this.regionName = prefix.toByteArray();
  }

  /**
   * The region of {@code table} (a checked name, without the default namespace) holding the rows
   * {@code [startKey, endKey)}; empty keys are the table's ends.
   *
   * @throws IllegalArgumentException if both keys are set and the start is not before the end
   */
  public static RegionInfo of(String table, byte[] startKey, byte[] endKey, long regionId) {
    return new RegionInfo(table, startKey.clone(), endKey.clone(), regionId);
  }

  private static byte[] md5(byte[] bytes) {
    try {
      return MessageDigest.getInstance("MD5").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no MD5", e);
    }
  }

  /** The table's name, without the default namespace. */
  public String table() {
    return table;
  }

  /** The first row of the region (a copy); empty for the table's first region. */
  public byte[] startKey() {
    return startKey.clone();
  }

  /** The first row of the region, not copied: for Cellar's routing, which must not change it. */
  byte[] startKeyUnsafe() {
    return startKey;
  }

  /** The row after the region's last, not copied. */
  byte[] endKeyUnsafe() {
    return endKey;
  }

  /** The row after the region's last (a copy); empty for the table's last region. */
  public byte[] endKey() {
    return endKey.clone();
  }

  /** The region's id: its creation time in milliseconds. */
  public long regionId() {
    return regionId;
  }

  /** HBase's region name (a copy). */
  public byte[] regionName() {
    return regionName.clone();
  }

  /** The 32 hex digits of the MD5 in the region name: the region's directory and log key. */
  public String encodedName() {
    return encodedName;
  }

  /** Whether {@code row} lies in the region. */
  public boolean containsRow(byte[] row) {
    return Bytes.compare(row, startKey) >= 0
        && (endKey.length == 0 || Bytes.compare(row, endKey) < 0);
  }

  /** Whether the region starts at the table's first row. */
  public boolean isFirst() {
    return startKey.length == 0;
  }

  /** Whether the region ends at the table's last row. */
  public boolean isLast() {
    return endKey.length == 0;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RegionInfo that && Arrays.equals(regionName, that.regionName);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(regionName);
  }

  @Override
  public String toString() {
    return Bytes.toStringBinary(regionName)
        + " ["
        + Bytes.toStringBinary(startKey)
        + ", "
        + Bytes.toStringBinary(endKey)
        + ")";
  }
}
