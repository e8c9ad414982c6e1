package dev.cellar.hfile.encoding;

/**
 * The per-file switches that shape every cell of a data block, as the HFile records them in its
 * file info. Immutable and thread-safe.
 *
 * @param includesTags every cell carries a tags length (possibly 0) and its tags ({@code
 *     hfile.MAX_TAGS_LEN} present)
 * @param includesMvcc every cell ends with its sequence id as a Hadoop vlong ({@code
 *     KEY_VALUE_VERSION} = 1)
 * @param compressTags tags are dictionary-compressed ({@code hfile.TAGS_COMPRESSED}); honoured by
 *     PREFIX, DIFF and FAST_DIFF when {@code includesTags}, ignored by NONE and ROW_INDEX_V1, which
 *     always store tags as they are
 */
public record EncodingContext(boolean includesTags, boolean includesMvcc, boolean compressTags) {

  /** Returns whether a delta encoding (PREFIX, DIFF, FAST_DIFF) compresses tags. */
  boolean dictionaryCompressesTags() {
    return includesTags && compressTags;
  }
}
