package dev.cellar.schema;

import java.util.Locale;

/**
 * The bloom filter kinds of a column family ({@code BLOOMFILTER}), under HBase's names: which keys
 * a file's bloom filter holds, so that a Get can skip files that cannot have its row. The name is
 * what HBase stores in the file info under {@code BLOOM_FILTER_TYPE}. Immutable and thread-safe.
 */
public enum BloomType {
  /** No general bloom filter. */
  NONE,
  /** One key per distinct row: the row bytes. */
  ROW,
  /** One key per distinct (row, qualifier): a KeyValue key with an empty family. */
  ROWCOL,
  /** One key per distinct row prefix of a fixed length (CF config {@code prefix_length}). */
  ROWPREFIX_FIXED_LENGTH;

  /** The alias HBase's shell and descriptors accept for {@link #ROWPREFIX_FIXED_LENGTH}. */
  private static final String ROWPREFIX_ALIAS = "ROWPREFIX";

  /**
   * Parses a type name as HBase spells it (case-insensitive, surrounding blanks ignored); {@code
   * ROWPREFIX} means {@link #ROWPREFIX_FIXED_LENGTH}.
   *
   * @throws IllegalArgumentException naming the valid names if {@code name} is none of them
   */
  public static BloomType parse(String name) {
    String upper = name.trim().toUpperCase(Locale.ROOT);
    if (upper.equals(ROWPREFIX_ALIAS)) {
      return ROWPREFIX_FIXED_LENGTH;
    }
    for (BloomType type : values()) {
      if (type.name().equals(upper)) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        "unknown bloom type '"
            + name
            + "': expected NONE, ROW, ROWCOL, ROWPREFIX_FIXED_LENGTH or ROWPREFIX");
  }
}
