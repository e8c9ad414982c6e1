package dev.cellar.hfile.bloom;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.config.InvalidConfigException;
import dev.cellar.schema.BloomType;
import java.util.ArrayDeque;
import java.util.NoSuchElementException;

/**
 * Builds one compound bloom filter of a store file, chunk by chunk, exactly as HBase's {@code
 * StoreFileWriter} with its bloom contexts and {@code CompoundBloomFilterWriter} does, so that the
 * chunk payloads, their places in the file and the meta payload are HBase's bytes. Not thread-safe:
 * one file writer drives it.
 *
 * <p><b>Keys.</b> {@link #add} takes every cell of the file in order and derives the bloom key
 * ({@link BloomKeys}); a key equal to the previous one is skipped, a key sorting before it is
 * rejected. The delete-family bloom ({@link #deleteFamily}) looks only at DeleteFamily and
 * DeleteFamilyVersion cells, adds their rows and counts the cells for FileInfo's {@code
 * DELETE_FAMILY_COUNT}.
 *
 * <p><b>Chunks.</b> The first chunk is sized from the configuration ({@link ChunkSizing}); every
 * later one copies its predecessor's sizing. A chunk is full when it holds {@code maxKeys} keys; a
 * full chunk is closed when the next key arrives or when the file writer polls, whichever is first.
 * Closing folds the chunk ({@link BloomFilterChunk#fold}) and queues it as a {@link ReadyChunk}.
 *
 * <p><b>Protocol with the file writer</b> (HBase's inline-block protocol):
 *
 * <ol>
 *   <li>For each cell: {@code add(cell)} <em>before</em> the data-block writer decides whether the
 *       cell starts a new block, as HBase's store writer feeds its blooms first.
 *   <li>Whenever a data block has been written (after the data index's leaf chunk, and the general
 *       bloom before the delete-family bloom): {@code while (hasReadyChunk())} write {@code
 *       takeReadyChunk().payload()} as a {@code BLOOM_CHUNK} block, then call {@link #chunkWritten}
 *       with its offset and on-disk size.
 *   <li>At close, after the last data block: drain the ready chunks as above, then write {@link
 *       #finishLastChunk()} (if not null) the same way.
 *   <li>If {@link #isEmpty()} is false, store {@link #metaPayload()} in the bloom meta block and,
 *       for the general bloom, {@link #lastKey()} as {@code LAST_BLOOM_KEY}.
 * </ol>
 *
 * <p>The meta payload's layout is documented on {@link BloomMeta}, the index entries' on {@link
 * ChunkIndex}, the keys' on {@link BloomKeys}.
 */
public final class CompoundBloomWriter {

  private final BloomType keyType;
  private final int prefixLength;
  private final boolean deleteFamily;
  private final HashType hashType;
  private final ArrayDeque<ReadyChunk> ready = new ArrayDeque<>();
  private final ArrayDeque<byte[]> awaitingWrite = new ArrayDeque<>();
  private final ChunkIndex.Builder index = new ChunkIndex.Builder();

  private ChunkSizing nextSizing;
  private BloomFilterChunk current;
  private byte[] currentFirstKey;
  private byte[] lastKey;
  private int hashCount;
  private long keyCount;
  private long totalByteSize;
  private long totalMaxKeys;
  private long deleteFamilyCells;

  private CompoundBloomWriter(BloomType keyType, BloomConfig config, boolean deleteFamily) {
    this.keyType = keyType;
    this.deleteFamily = deleteFamily;
    this.hashType = config.hashType();
    this.prefixLength = config.prefixLength();
    if (keyType == BloomType.ROWPREFIX_FIXED_LENGTH && prefixLength < 1) {
      throw new InvalidConfigException(
          BloomConfig.PREFIX_LENGTH_KEY,
          Integer.toString(prefixLength),
          "required by bloom type " + keyType.name());
    }
    this.nextSizing =
        ChunkSizing.forHint(
            config.chunkByteSizeHint(), config.maxFold(), config.errorRateFor(keyType));
  }

  /**
   * A writer for the general bloom of a column family.
   *
   * @throws IllegalArgumentException for {@link BloomType#NONE}
   * @throws InvalidConfigException if a ROWPREFIX_FIXED_LENGTH bloom has no prefix length
   */
  public static CompoundBloomWriter general(BloomType type, BloomConfig config) {
    if (type == BloomType.NONE) {
      throw new IllegalArgumentException("bloom type NONE has no bloom writer");
    }
    return new CompoundBloomWriter(type, config, false);
  }

  /**
   * A writer for the delete-family bloom: row keys of DeleteFamily and DeleteFamilyVersion cells,
   * sized with the configured error rate. HBase builds one only when the general bloom is not
   * ROWCOL.
   */
  public static CompoundBloomWriter deleteFamily(BloomConfig config) {
    return new CompoundBloomWriter(BloomType.ROW, config, true);
  }

  /** Whether this is a delete-family bloom. */
  public boolean isDeleteFamilyBloom() {
    return deleteFamily;
  }

  /**
   * Offers the next cell of the file. Adds its bloom key unless it equals the previous key (or, for
   * the delete-family bloom, unless the cell is no DeleteFamily or DeleteFamilyVersion marker).
   *
   * @throws IllegalArgumentException if the cell's bloom key sorts before the previous one: cells
   *     must come in file order
   */
  public void add(Cell cell) {
    if (deleteFamily) {
      if (!BloomKeys.isDeleteFamilyMarker(cell)) {
        return;
      }
      deleteFamilyCells++;
    }
    if (lastKey != null) {
      int order = BloomKeys.compare(keyType, prefixLength, cell, lastKey);
      if (order == 0) {
        return;
      }
      if (order < 0) {
        throw new IllegalArgumentException(
            "bloom key of "
                + cell
                + " sorts before the previous bloom key "
                + Bytes.toStringBinary(lastKey)
                + ": cells must be added in file order");
      }
    }
    byte[] key = BloomKeys.of(keyType, prefixLength, cell);
    closeFullChunk();
    if (current == null) {
      current = new BloomFilterChunk(nextSizing, hashType);
      currentFirstKey = key;
    }
    current.add(key, 0, key.length);
    lastKey = key;
    keyCount++;
  }

  /**
   * Whether a chunk is ready to be written; closes the current chunk first if it is full. Call at
   * every data-block boundary until it returns false.
   */
  public boolean hasReadyChunk() {
    closeFullChunk();
    return !ready.isEmpty();
  }

  /**
   * Hands out the oldest ready chunk; write it, then report it with {@link #chunkWritten}.
   *
   * @throws NoSuchElementException if no chunk is ready
   */
  public ReadyChunk takeReadyChunk() {
    ReadyChunk chunk = ready.poll();
    if (chunk == null) {
      throw new NoSuchElementException("no bloom chunk is ready; check hasReadyChunk() first");
    }
    awaitingWrite.add(chunk.firstKey());
    return chunk;
  }

  /**
   * Closes the partly filled last chunk at file close and hands it out, folded; write it, then
   * report it with {@link #chunkWritten}.
   *
   * @return the last chunk, or {@code null} if no key arrived since the last chunk closed
   * @throws IllegalStateException if ready chunks have not all been taken
   */
  public ReadyChunk finishLastChunk() {
    if (!ready.isEmpty()) {
      throw new IllegalStateException(
          ready.size() + " ready bloom chunk(s) must be taken before the last one");
    }
    if (current == null) {
      return null;
    }
    closeCurrentChunk();
    return takeReadyChunk();
  }

  /**
   * Records where the oldest taken, unreported chunk was written.
   *
   * @param offset the file offset of its {@code BLOOM_CHUNK} block
   * @param onDiskSize the block's full on-disk size (header, payload, checksums)
   * @throws IllegalStateException if no taken chunk awaits its position
   * @throws IllegalArgumentException if the offset does not follow the previous chunk's or the size
   *     is not positive
   */
  public void chunkWritten(long offset, int onDiskSize) {
    if (awaitingWrite.isEmpty()) {
      throw new IllegalStateException("no bloom chunk was taken and left unreported");
    }
    if (offset <= index.lastOffset() || offset < 0) {
      throw new IllegalArgumentException(
          "bloom chunk offset: expected more than "
              + Math.max(-1, index.lastOffset())
              + ", found "
              + offset);
    }
    if (onDiskSize < 1) {
      throw new IllegalArgumentException(
          "bloom chunk on-disk size: expected >= 1, found " + onDiskSize);
    }
    index.add(awaitingWrite.poll(), offset, onDiskSize);
  }

  /**
   * The bloom meta block payload (layout on {@link BloomMeta}).
   *
   * @throws IllegalStateException if the bloom has no key (HBase writes no meta block then), or if
   *     a chunk is still open, ready or unreported
   */
  public byte[] metaPayload() {
    if (isEmpty()) {
      throw new IllegalStateException("an empty bloom has no meta block");
    }
    if (current != null || !ready.isEmpty() || !awaitingWrite.isEmpty()) {
      throw new IllegalStateException(
          "bloom chunks not yet written: "
              + (current != null ? "an open chunk (call finishLastChunk), " : "")
              + ready.size()
              + " ready, "
              + awaitingWrite.size()
              + " taken but unreported");
    }
    return new BloomMeta(
            totalByteSize,
            hashCount,
            hashType,
            keyCount,
            totalMaxKeys,
            index.build(KeyOrder.of(keyType)))
        .encode();
  }

  /** A copy of the last key added ({@code LAST_BLOOM_KEY}), or {@code null} if none was. */
  public byte[] lastKey() {
    return lastKey == null ? null : lastKey.clone();
  }

  /** The number of keys added. */
  public long keyCount() {
    return keyCount;
  }

  /** Whether no key was added: then no chunk, meta block or {@code LAST_BLOOM_KEY} is written. */
  public boolean isEmpty() {
    return keyCount == 0;
  }

  /**
   * The number of DeleteFamily and DeleteFamilyVersion cells offered to a delete-family bloom
   * (cells, not distinct rows): FileInfo's {@code DELETE_FAMILY_COUNT}. Always 0 for a general
   * bloom.
   */
  public long deleteFamilyCount() {
    return deleteFamilyCells;
  }

  private void closeFullChunk() {
    if (current != null && current.isFull()) {
      closeCurrentChunk();
    }
  }

  private void closeCurrentChunk() {
    current.fold();
    ready.add(new ReadyChunk(current.toByteArray(), currentFirstKey, current.keyCount()));
    totalByteSize += current.byteSize();
    totalMaxKeys += current.maxKeys();
    hashCount = current.hashCount();
    nextSizing = current.sizing();
    current = null;
    currentFirstKey = null;
  }
}
