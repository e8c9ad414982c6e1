package dev.cellar.cache;

import java.util.Objects;

/**
 * Identifies a cached block by file and offset. Equality and hashing use the file's numeric id from
 * {@link FileIds} and the offset; the name is kept for persistence and eviction by file.
 *
 * <p>The optional category is a hint from the reader about what it expects at that offset (as
 * HBase's key carries a block type); it only attributes misses to a category in the statistics and
 * takes no part in equality.
 *
 * <p>A key made by a constructor is immutable. A {@link Probe} is the one mutable kind: a reader
 * thread points its own probe at block after block to look them up without allocating a key per
 * lookup. A probe is for lookups only; a cache that keeps a key it was given takes {@link
 * #detached()}, an immutable copy of a probe (and the key itself otherwise).
 */
public sealed class BlockCacheKey permits BlockCacheKey.Probe {

  private String fileName;
  private long fileId;
  private long offset;
  private BlockCategory expectedCategory;

  public BlockCacheKey(String fileName, long offset) {
    this(fileName, offset, null);
  }

  /** A key whose misses count against {@code expectedCategory} (null for unknown). */
  public BlockCacheKey(String fileName, long offset, BlockCategory expectedCategory) {
    this.fileName = Objects.requireNonNull(fileName, "fileName");
    if (offset < 0) {
      throw new IllegalArgumentException("block offset must be >= 0, was " + offset);
    }
    this.fileId = FileIds.idOf(fileName);
    this.offset = offset;
    this.expectedCategory = expectedCategory;
  }

  private BlockCacheKey(String fileName, long fileId, long offset, BlockCategory expectedCategory) {
    this.fileName = fileName;
    this.fileId = fileId;
    this.offset = offset;
    this.expectedCategory = expectedCategory;
  }

  /** A key a cache may keep: this key, or an immutable copy when this is a {@link Probe}. */
  public BlockCacheKey detached() {
    return this;
  }

  public String fileName() {
    return fileName;
  }

  public long fileId() {
    return fileId;
  }

  public long offset() {
    return offset;
  }

  /** The category the reader expects, or null when unknown. */
  public BlockCategory expectedCategory() {
    return expectedCategory;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof BlockCacheKey key && key.fileId == fileId && key.offset == offset;
  }

  /**
   * Mixes the offset in with a multiply and a fold, so that the blocks of one file at a regular
   * stride (fixed-size cells make blocks of one size) spread over a hash table's buckets. Adding
   * the offset to the file's mix, as before, left strides such as 4,096 or 65,569 bytes (a 64 KiB
   * block and its header) in a sixth of the buckets or fewer, with chains of 10 to 20 keys.
   */
  @Override
  public int hashCode() {
    long mixed = ((fileId * 0x9E3779B97F4A7C15L) ^ offset) * 0xBF58476D1CE4E5B9L;
    return (int) (mixed ^ (mixed >>> 32));
  }

  @Override
  public String toString() {
    return fileName + "@" + offset;
  }

  /**
   * A key one thread re-points at block after block to look them up without allocating; never kept
   * by a cache (see {@link #detached()}). Not thread-safe.
   */
  public static final class Probe extends BlockCacheKey {

    /** An unset probe; {@link #set} it before use. */
    public Probe() {
      super("", 0, 0, null);
    }

    /**
     * Points the probe at a block.
     *
     * @param fileId the file's id, {@link FileIds#idOf} of {@code fileName}
     */
    public Probe set(String fileName, long fileId, long offset, BlockCategory expectedCategory) {
      if (offset < 0) {
        throw new IllegalArgumentException("block offset must be >= 0, was " + offset);
      }
      BlockCacheKey key = this;
      key.fileName = fileName;
      key.fileId = fileId;
      key.offset = offset;
      key.expectedCategory = expectedCategory;
      return this;
    }

    @Override
    public BlockCacheKey detached() {
      return new BlockCacheKey(fileName(), fileId(), offset(), expectedCategory());
    }
  }
}
