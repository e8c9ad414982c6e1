package dev.cellar;

/**
 * The compression of a column family's blocks ({@code COMPRESSION}), under HBase's names: the
 * algorithms Cellar reads and writes. HBase's others (LZO, BZIP2, LZMA, BROTLI) are refused when a
 * descriptor names them.
 */
public enum Compression {
  /** Blocks stored as they are. */
  NONE,
  /** Deflate with a gzip header. */
  GZ,
  /** Snappy. */
  SNAPPY,
  /** LZ4 in Hadoop's block framing. */
  LZ4,
  /** Zstandard. */
  ZSTD
}
