package dev.cellar.server.catalog;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * HBase's region names, which clients compute from a region's descriptor and send back in every
 * request, so the server must produce the very same bytes.
 *
 * <p>Layout: {@code <table>,<startKey>,<regionId>.<md5>.} where {@code <table>} is the table's name
 * without the {@code default:} namespace, {@code <regionId>} the decimal region id and {@code
 * <md5>} the lowercase hex MD5 of the bytes before the second {@code ,} up to the id inclusive,
 * i.e. of {@code <table>,<startKey>,<regionId>}. Cellar has one region per table, with an empty
 * start key. hbase:meta's one region is the old-format {@code hbase:meta,,1}.
 */
public final class RegionNames {

  public static final byte[] META_REGION_NAME = "hbase:meta,,1".getBytes(StandardCharsets.UTF_8);

  private RegionNames() {}

  /** The name of the one region of {@code table} created with {@code regionId}. */
  public static byte[] of(String table, long regionId) {
    String prefix = table + ",," + regionId;
    try {
      byte[] digest =
          MessageDigest.getInstance("MD5").digest(prefix.getBytes(StandardCharsets.UTF_8));
      return (prefix + "." + HexFormat.of().formatHex(digest) + ".")
          .getBytes(StandardCharsets.UTF_8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no MD5", e);
    }
  }
}
