package dev.cellar;

import dev.cellar.schema.BloomType;
import dev.cellar.schema.Compression;
import dev.cellar.schema.DataBlockEncoding;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A column family's settings, under HBase's attribute names and defaults:
 *
 * <table>
 *   <caption>attributes</caption>
 *   <tr><th>attribute</th><th>default</th></tr>
 *   <tr><td>BLOCKSIZE</td><td>65536</td></tr>
 *   <tr><td>BLOOMFILTER</td><td>ROW</td></tr>
 *   <tr><td>DATA_BLOCK_ENCODING</td><td>NONE</td></tr>
 *   <tr><td>COMPRESSION</td><td>NONE</td></tr>
 *   <tr><td>IN_MEMORY</td><td>false</td></tr>
 *   <tr><td>BLOCKCACHE</td><td>true</td></tr>
 *   <tr><td>VERSIONS</td><td>1</td></tr>
 *   <tr><td>TTL</td><td>FOREVER (seconds)</td></tr>
 *   <tr><td>MIN_VERSIONS</td><td>0</td></tr>
 * </table>
 *
 * Immutable; {@link #of(String, Map)} validates every attribute and names the bad one.
 */
public record ColumnFamilyDescriptor(
    String name,
    int blockSize,
    BloomType bloomFilter,
    DataBlockEncoding dataBlockEncoding,
    Compression compression,
    boolean inMemory,
    boolean blockCache,
    int maxVersions,
    long ttlSeconds,
    int minVersions) {

  /** HBase's TTL for "never expires". */
  public static final long FOREVER = Integer.MAX_VALUE;

  private static final List<String> ATTRIBUTES =
      List.of(
          "BLOCKSIZE",
          "BLOOMFILTER",
          "DATA_BLOCK_ENCODING",
          "COMPRESSION",
          "IN_MEMORY",
          "BLOCKCACHE",
          "VERSIONS",
          "TTL",
          "MIN_VERSIONS");

  public ColumnFamilyDescriptor {
    checkName(name);
    require(
        blockSize >= 1024 && blockSize <= 16 * 1024 * 1024,
        name,
        "BLOCKSIZE",
        blockSize,
        "between 1024 and 16777216");
    require(maxVersions >= 1, name, "VERSIONS", maxVersions, ">= 1");
    require(ttlSeconds >= 1, name, "TTL", ttlSeconds, ">= 1 second");
    require(
        minVersions >= 0 && minVersions <= maxVersions,
        name,
        "MIN_VERSIONS",
        minVersions,
        "between 0 and VERSIONS (" + maxVersions + ")");
    require(bloomFilter != null, name, "BLOOMFILTER", null, "set");
    require(dataBlockEncoding != null, name, "DATA_BLOCK_ENCODING", null, "set");
    require(compression != null, name, "COMPRESSION", null, "set");
    if (!compression.isSupported()) {
      throw new IllegalArgumentException(
          "family "
              + name
              + ": COMPRESSION "
              + compression
              + " is not available; use NONE, GZ, SNAPPY, LZ4 or ZSTD");
    }
  }

  /**
   * HBase's rules for family names, which also keep a family's directory inside its table's: not
   * empty, not starting with '.', without ':', '/', '\' or control characters.
   */
  private static void checkName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(
          "a family name is required, was " + (name == null ? "null" : "empty"));
    }
    if (name.charAt(0) == '.') {
      throw new IllegalArgumentException("family name '" + name + "' starts with '.'");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == ':' || c == '/' || c == '\\' || Character.isISOControl(c)) {
        throw new IllegalArgumentException(
            "family name '"
                + name
                + "' has "
                + (Character.isISOControl(c) ? "a control character" : "'" + c + "'")
                + " at "
                + i
                + "; ':', '/', '\\' and control characters are not allowed");
      }
    }
  }

  private static void require(
      boolean ok, String family, String attribute, Object value, String expected) {
    if (!ok) {
      throw new IllegalArgumentException(
          "family " + family + ": " + attribute + " " + value + " must be " + expected);
    }
  }

  /** A family with every default. */
  public static ColumnFamilyDescriptor of(String name) {
    return of(name, Map.of());
  }

  /** A family with the given attributes (HBase's names, case-insensitive) over the defaults. */
  public static ColumnFamilyDescriptor of(String name, Map<String, String> attributes) {
    Map<String, String> values = new LinkedHashMap<>();
    attributes.forEach((key, value) -> values.put(key.toUpperCase(Locale.ROOT), value.trim()));
    for (String key : values.keySet()) {
      if (!ATTRIBUTES.contains(key)) {
        throw new IllegalArgumentException(
            "family " + name + ": unknown attribute " + key + "; known: " + ATTRIBUTES);
      }
    }
    return new ColumnFamilyDescriptor(
        name,
        integer(name, values, "BLOCKSIZE", 65536),
        parse(name, "BLOOMFILTER", values.getOrDefault("BLOOMFILTER", "ROW"), BloomType::parse),
        parse(
            name,
            "DATA_BLOCK_ENCODING",
            values.getOrDefault("DATA_BLOCK_ENCODING", "NONE"),
            DataBlockEncoding::fromName),
        parse(
            name, "COMPRESSION", values.getOrDefault("COMPRESSION", "NONE"), Compression::fromName),
        bool(name, values, "IN_MEMORY", false),
        bool(name, values, "BLOCKCACHE", true),
        integer(name, values, "VERSIONS", 1),
        ttl(name, values.getOrDefault("TTL", "FOREVER")),
        integer(name, values, "MIN_VERSIONS", 0));
  }

  private interface Parser<T> {
    T parse(String text);
  }

  private static <T> T parse(String family, String attribute, String text, Parser<T> parser) {
    try {
      T value = parser.parse(text);
      if (value == null) {
        throw new IllegalArgumentException("unknown");
      }
      return value;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "family " + family + ": " + attribute + " '" + text + "' is not valid", e);
    }
  }

  private static int integer(String family, Map<String, String> values, String key, int fallback) {
    String text = values.get(key);
    return text == null ? fallback : parse(family, key, text, Integer::parseInt);
  }

  private static boolean bool(
      String family, Map<String, String> values, String key, boolean fallback) {
    String text = values.get(key);
    if (text == null) {
      return fallback;
    }
    return parse(
        family,
        key,
        text,
        value ->
            switch (value.toLowerCase(Locale.ROOT)) {
              case "true" -> Boolean.TRUE;
              case "false" -> Boolean.FALSE;
              default -> null;
            });
  }

  private static long ttl(String family, String text) {
    return text.equalsIgnoreCase("FOREVER") ? FOREVER : parse(family, "TTL", text, Long::parseLong);
  }

  /** The name as bytes, as cells carry it. */
  public byte[] nameBytes() {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  /** TTL in milliseconds; Long.MAX_VALUE for FOREVER. */
  public long ttlMillis() {
    return ttlSeconds >= FOREVER ? Long.MAX_VALUE : ttlSeconds * 1000;
  }

  /** The attributes by HBase's names, as {@link #of(String, Map)} reads them back. */
  public Map<String, String> attributes() {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("BLOCKSIZE", Integer.toString(blockSize));
    attributes.put("BLOOMFILTER", bloomFilter.name());
    attributes.put("DATA_BLOCK_ENCODING", dataBlockEncoding.name());
    attributes.put("COMPRESSION", compression.name());
    attributes.put("IN_MEMORY", Boolean.toString(inMemory));
    attributes.put("BLOCKCACHE", Boolean.toString(blockCache));
    attributes.put("VERSIONS", Integer.toString(maxVersions));
    attributes.put("TTL", ttlSeconds >= FOREVER ? "FOREVER" : Long.toString(ttlSeconds));
    attributes.put("MIN_VERSIONS", Integer.toString(minVersions));
    return attributes;
  }

  @Override
  public String toString() {
    return "{NAME => '"
        + name
        + "', "
        + attributes().entrySet().stream()
            .map(e -> e.getKey() + " => '" + e.getValue() + "'")
            .reduce((a, b) -> a + ", " + b)
            .orElse("")
        + "}";
  }
}
