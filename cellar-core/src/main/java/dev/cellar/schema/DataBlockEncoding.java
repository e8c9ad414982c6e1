package dev.cellar.schema;

/**
 * HBase's data block encodings, with the ids HBase writes in front of encoded block payloads and
 * the names it stores under {@code DATA_BLOCK_ENCODING} in the file info. Immutable and
 * thread-safe.
 *
 * <p>{@link #NONE} blocks have block type DATA and their payload is the cells alone, without an
 * encoding id. Every other encoding writes blocks of type ENCODED_DATA whose payload starts with
 * the 2-byte big-endian id ({@link #ID_SIZE}); {@link #isEncoded()} tells the two apart.
 *
 * <p>Ids HBase reserves or removed are refused with a message saying so: 1 (BITSET, never
 * implemented), 5 (COPY_KEY, a test-only encoding) and 6 (PREFIX_TREE, removed in HBase 2.0).
 */
public enum DataBlockEncoding {
  /** Cells in the plain KeyValue layout. */
  NONE(0),
  /** Each key stored as its difference from the previous key. */
  PREFIX(2),
  /** Key deltas with the family written once and timestamps as differences. */
  DIFF(3),
  /** Key deltas with timestamp prefixes and repeated values left out. */
  FAST_DIFF(4),
  /** Plain KeyValue cells followed by an index of the offsets where rows start. */
  ROW_INDEX_V1(7);

  /** Size of the big-endian encoding id at the start of an encoded payload. */
  public static final int ID_SIZE = Short.BYTES;

  private static final short BITSET_ID = 1;
  private static final short COPY_KEY_ID = 5;
  private static final short PREFIX_TREE_ID = 6;

  /** {@link #values()} once: that call copies the array every time. */
  private static final DataBlockEncoding[] ALL = values();

  private final short id;

  DataBlockEncoding(int id) {
    this.id = (short) id;
  }

  /** Returns the id HBase writes for this encoding. */
  public short id() {
    return id;
  }

  /** Returns whether blocks are ENCODED_DATA with the id in front (every encoding but NONE). */
  public boolean isEncoded() {
    return this != NONE;
  }

  /** Returns the encoding with the given id, or null if no encoding has it; allocates nothing. */
  public static DataBlockEncoding ofIdOrNull(short id) {
    for (DataBlockEncoding encoding : ALL) {
      if (encoding.id == id) {
        return encoding;
      }
    }
    return null;
  }

  /**
   * Returns the encoding with the given id.
   *
   * @throws IllegalArgumentException for an id HBase reserved, removed or never defined
   */
  public static DataBlockEncoding fromId(short id) {
    DataBlockEncoding known = ofIdOrNull(id);
    if (known != null) {
      return known;
    }
    String why =
        switch (id) {
          case BITSET_ID -> "is reserved by HBase (BITSET) and was never implemented";
          case COPY_KEY_ID -> "is HBase's test-only COPY_KEY encoding, never used in files";
          case PREFIX_TREE_ID ->
              "is PREFIX_TREE, removed in HBase 2.0; rewrite the file with another encoding";
          default -> "is not an HBase data block encoding";
        };
    throw new IllegalArgumentException(
        "data block encoding id " + id + " " + why + "; expected one of " + known());
  }

  /**
   * Returns the encoding HBase stores under this name in the file info ({@code FAST_DIFF}, ...).
   *
   * @throws IllegalArgumentException for a name HBase removed or never defined
   */
  public static DataBlockEncoding fromName(String name) {
    for (DataBlockEncoding encoding : ALL) {
      if (encoding.name().equals(name)) {
        return encoding;
      }
    }
    String why =
        switch (name) {
          case "PREFIX_TREE" -> "was removed in HBase 2.0; rewrite the file with another encoding";
          case "COPY_KEY" -> "is HBase's test-only encoding, never used in files";
          default -> "is not an HBase data block encoding";
        };
    throw new IllegalArgumentException(
        "data block encoding '" + name + "' " + why + "; expected one of " + known());
  }

  private static String known() {
    StringBuilder out = new StringBuilder();
    for (DataBlockEncoding encoding : ALL) {
      out.append(out.isEmpty() ? "" : ", ").append(encoding).append(" (").append(encoding.id);
      out.append(')');
    }
    return out.toString();
  }
}
