package dev.cellar.hfile.bloom;

import dev.cellar.memory.Buf;
import dev.cellar.schema.BloomType;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Answers "might this key be in the file?" from a compound bloom filter: the parsed meta block
 * (kept on the heap) plus chunk payloads loaded on demand. Thread-safe: immutable after {@link
 * #parse}; concurrent lookups share nothing but the {@link ChunkLoader}.
 *
 * <p>A lookup, as HBase's {@code CompoundBloomFilter}: find the chunk with the largest first key
 * not after the key (none: absent), load its payload, probe it ({@link
 * BloomFilterChunk#contains(Buf, HashType, int, MemorySegment, long, int)}) with the payload's own
 * size, release it. Keys are the bytes of {@link BloomKeys}: rows or row prefixes compared as
 * unsigned bytes, ROWCOL keys compared as KeyValue keys.
 *
 * <p>What stays with the caller: an empty file (no lookup needed), the {@code LAST_BLOOM_KEY} rule
 * and ROWCOL's second probe ({@link GeneralBloomLookup} does both), and turning a {@link
 * CorruptBloomException} or an {@link IOException} into "read without the bloom".
 */
public final class CompoundBloomReader {

  private final BloomType type;
  private final BloomMeta meta;

  private CompoundBloomReader(BloomType type, BloomMeta meta) {
    this.type = type;
    this.meta = meta;
  }

  /**
   * Parses and validates a {@code GENERAL_BLOOM_META} or {@code DELETE_FAMILY_BLOOM_META} payload.
   * The payload is copied; the caller keeps its reference.
   *
   * @param type the general bloom's type from FileInfo's {@code BLOOM_FILTER_TYPE}, or {@link
   *     BloomType#ROW} for the delete-family bloom
   * @throws CorruptBloomException naming the field, its offset, the expected and the found value
   * @throws IllegalArgumentException for {@link BloomType#NONE}
   */
  public static CompoundBloomReader parse(Buf metaPayload, BloomType type) {
    if (type == BloomType.NONE) {
      throw new IllegalArgumentException("bloom type NONE has no bloom to read");
    }
    return new CompoundBloomReader(type, BloomMeta.decode(metaPayload, type));
  }

  /**
   * Whether {@code key} might have been added: false means it certainly was not.
   *
   * @throws IOException if the loader fails
   * @throws CorruptBloomException if the loaded chunk payload is empty or too large
   */
  public boolean mightContain(byte[] key, int offset, int length, ChunkLoader loader)
      throws IOException {
    Objects.checkFromIndexSize(offset, length, key.length);
    return mightContain(MemorySegment.ofArray(key), offset, length, loader);
  }

  /**
   * Whether the key held in a range of a segment might have been added: false means it certainly
   * was not.
   *
   * @throws IOException if the loader fails
   * @throws CorruptBloomException if the loaded chunk payload is empty or too large
   * @throws IllegalArgumentException if a ROWCOL key is not a well-formed KeyValue key
   */
  public boolean mightContain(MemorySegment key, long offset, int length, ChunkLoader loader)
      throws IOException {
    ChunkIndex index = meta.index();
    int chunk = index.find(key, offset, length);
    if (chunk < 0) {
      return false;
    }
    Buf bits = loader.load(index.offset(chunk), index.onDiskSize(chunk));
    if (bits == null) {
      throw new IOException(
          "bloom chunk loader returned no payload for the block at offset " + index.offset(chunk));
    }
    try {
      return BloomFilterChunk.contains(
          bits, meta.hashType(), meta.hashCount(), key, offset, length);
    } finally {
      bits.release();
    }
  }

  /**
   * Compares two keys of this bloom in its key order (unsigned bytes, or KeyValue keys for ROWCOL),
   * for checks against {@code LAST_BLOOM_KEY}.
   *
   * @throws IllegalArgumentException if a ROWCOL key is malformed
   */
  public int compareKeys(byte[] left, byte[] right) {
    return meta.index().order().compare(MemorySegment.ofArray(left), MemorySegment.ofArray(right));
  }

  /** Compares a key in a range of a segment with a whole key in another, in this bloom's order. */
  public int compareKeys(MemorySegment left, long leftOffset, int leftLength, MemorySegment right) {
    return meta.index()
        .order()
        .compare(left, leftOffset, leftLength, right, 0, (int) right.byteSize());
  }

  /** The bloom type this reader was parsed for. */
  public BloomType type() {
    return type;
  }

  public HashType hashType() {
    return meta.hashType();
  }

  public int hashCount() {
    return meta.hashCount();
  }

  /** The number of chunks. */
  public int chunkCount() {
    return meta.index().count();
  }

  /** The number of keys the writer added. */
  public long keyCount() {
    return meta.totalKeyCount();
  }

  /** The sum of the chunks' byte sizes. */
  public long byteSize() {
    return meta.totalByteSize();
  }

  /** The sum of the chunks' capacities. */
  public long maxKeys() {
    return meta.totalMaxKeys();
  }

  @Override
  public String toString() {
    return "CompoundBloomReader["
        + type.name()
        + ", "
        + chunkCount()
        + " chunks, "
        + keyCount()
        + " keys, "
        + byteSize()
        + " bytes, "
        + hashCount()
        + " x "
        + hashType().configName()
        + "]";
  }
}
