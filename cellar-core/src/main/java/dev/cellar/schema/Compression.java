package dev.cellar.schema;

import java.util.Locale;

/**
 * The compression of a column family's blocks ({@code COMPRESSION}): the algorithms an HFile can
 * name, under HBase's names (its {@code Compression.Algorithm}). The trailer stores the algorithm's
 * position in this list (HBase's {@code Compression.Algorithm} ordinal), so the order is part of
 * the format and must never change. Cellar reads and writes NONE, GZ, SNAPPY, LZ4 and ZSTD; a file
 * using one of the others is refused with an error naming the algorithm.
 */
public enum Compression {
  LZO("lzo"),
  GZ("gz"),
  NONE("none"),
  SNAPPY("snappy"),
  LZ4("lz4"),
  BZIP2("bzip2"),
  ZSTD("zstd"),
  LZMA("lzma"),
  BROTLI("brotli");

  private static final Compression[] VALUES = values();

  private final String configName;

  Compression(String configName) {
    this.configName = configName;
  }

  /** The lower-case name used in configuration and column family attributes. */
  public String configName() {
    return configName;
  }

  /** The on-disk code stored in the trailer. */
  public int code() {
    return ordinal();
  }

  /** The algorithm with trailer code {@code code}, or {@code null} if the code is unknown. */
  public static Compression fromCode(int code) {
    return code >= 0 && code < VALUES.length ? VALUES[code] : null;
  }

  /** Parses a name such as {@code SNAPPY} or {@code snappy}. */
  public static Compression fromName(String name) {
    for (Compression algorithm : VALUES) {
      if (algorithm.configName.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return algorithm;
      }
    }
    throw new IllegalArgumentException(
        "unknown compression '" + name + "': expected one of NONE," + " GZ, SNAPPY, LZ4, ZSTD");
  }

  /** True if Cellar can read and write blocks with this algorithm. */
  public boolean isSupported() {
    return switch (this) {
      case NONE, GZ, SNAPPY, LZ4, ZSTD -> true;
      default -> false;
    };
  }
}
