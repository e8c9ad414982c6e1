package dev.cellar.server.rpc;

/**
 * The cell block codecs a client may name in its connection header. Both frame each cell as HBase's
 * KeyValueCodec does: a big-endian {@code int32} length, then the KeyValue ({@code int32 keyLength,
 * int32 valueLength, key, value}); the tagged form appends {@code int16 tagsLength, tags} to cells
 * that have tags and counts them in the length.
 */
public enum CellCodec {
  /** No codec named: cells travel as protobuf {@code Cell} messages inside the results. */
  NONE(null),
  KEY_VALUE("org.apache.hadoop.hbase.codec.KeyValueCodec"),
  KEY_VALUE_WITH_TAGS("org.apache.hadoop.hbase.codec.KeyValueCodecWithTags");

  private final String className;

  CellCodec(String className) {
    this.className = className;
  }

  /** The codec the connection header names; null when the server does not speak it. */
  public static CellCodec forClassName(String name) {
    if (name == null || name.isEmpty()) {
      return NONE;
    }
    for (CellCodec codec : values()) {
      if (name.equals(codec.className)) {
        return codec;
      }
    }
    return null;
  }

  public boolean withTags() {
    return this == KEY_VALUE_WITH_TAGS;
  }

  public boolean usesCellBlocks() {
    return this != NONE;
  }
}
