package dev.cellar.hfile;

import java.io.IOException;

/**
 * Builds the multi-level data block index while an HFile is written.
 *
 * <p>Each data block's entry goes into the current leaf chunk. At every inline poll (after each
 * data block) a leaf chunk whose non-root size reached {@code maxChunkSize} is written as a
 * LEAF_INDEX block, and its first key becomes an entry of the leaf level. At close, if no leaf was
 * ever written the pending entries become the root (one level). Otherwise the remainder is written
 * as a last leaf, the mid-key metadata is computed from the leaf level, intermediate levels are
 * built while the top level is too big, and the top level is written as the ROOT_INDEX block.
 *
 * <pre>
 * ROOT_INDEX payload := root-format entries (see {@link IndexEntries})
 *                       [midLeafOffset:int64 midLeafOnDiskSize:int32 midKeyEntry:int32]  if levels &gt; 1
 * LEAF_INDEX / INTERMEDIATE_INDEX payload := non-root-format entries
 * </pre>
 *
 * Not thread-safe: owned by one file writer.
 */
final class BlockIndexWriter {

  /** Levels at most, as HBase bounds them. */
  private static final int MAX_LEVELS = 16;

  private final int maxChunkSize;
  private final int minEntries;
  private final IndexEntries leaf = new IndexEntries();
  private final IndexEntries leafLevel = new IndexEntries();
  private long dataBlocks;
  private long uncompressedIndexSize;

  /**
   * Header plus payload bytes of the root and intermediate blocks, which HBase leaves out of the
   * trailer's total uncompressed bytes.
   */
  private long rootAndIntermediateBytes;

  BlockIndexWriter(int maxChunkSize, int minEntries) {
    if (maxChunkSize <= 0) {
      throw new IllegalArgumentException("index chunk size must be > 0, was " + maxChunkSize);
    }
    if (minEntries < 2) {
      throw new IllegalArgumentException("index min entries must be >= 2, was " + minEntries);
    }
    this.maxChunkSize = maxChunkSize;
    this.minEntries = minEntries;
  }

  /** Records a written data block under its (shortened) index key. */
  void addDataBlock(byte[] indexKey, long offset, int onDiskSize) {
    leaf.add(indexKey, offset, onDiskSize);
    dataBlocks++;
  }

  /** The inline poll after a data block: writes the leaf chunk if it is full. */
  void writeLeafIfFull(BlockWriter writer) throws IOException {
    if (leaf.nonRootSize() >= maxChunkSize) {
      writeLeaf(writer);
    }
  }

  private void writeLeaf(BlockWriter writer) throws IOException {
    byte[] payload = leaf.toNonRoot();
    BlockWriter.WrittenBlock block = writer.write(BlockType.LEAF_INDEX, payload, payload.length);
    uncompressedIndexSize += payload.length;
    leafLevel.add(leaf.key(0), block.offset(), block.onDiskSizeWithHeader(), dataBlocks);
    leaf.clear();
  }

  /** The final inline poll, before META blocks: the last leaf if the index is multi-level. */
  void writeLastLeaf(BlockWriter writer) throws IOException {
    if (!leafLevel.isEmpty() && !leaf.isEmpty()) {
      writeLeaf(writer);
    }
  }

  /**
   * Writes the intermediate levels and the root; called after the META blocks.
   *
   * @return the root's location and the index's shape, for the trailer
   */
  Result writeRoot(BlockWriter writer) throws IOException {
    IndexEntries top;
    int levels;
    byte[] midKeyMetadata = null;
    if (leafLevel.isEmpty()) {
      top = leaf;
      levels = 1;
    } else {
      top = leafLevel;
      levels = 2;
      midKeyMetadata = midKeyMetadata();
      while (top.rootSize() > maxChunkSize && top.count() > minEntries && levels < MAX_LEVELS) {
        top = writeIntermediateLevel(writer, top);
        levels++;
      }
    }
    PayloadBuilder root = new PayloadBuilder((int) top.rootSize() + 16);
    top.writeRoot(root);
    if (midKeyMetadata != null) {
      root.putBytes(midKeyMetadata);
    }
    byte[] payload = root.toByteArray();
    BlockWriter.WrittenBlock block = writer.write(BlockType.ROOT_INDEX, payload, payload.length);
    uncompressedIndexSize += payload.length;
    rootAndIntermediateBytes += BlockHeader.SIZE + payload.length;
    return new Result(
        block.offset(),
        levels,
        top.count(),
        uncompressedIndexSize,
        dataBlocks,
        rootAndIntermediateBytes);
  }

  private IndexEntries writeIntermediateLevel(BlockWriter writer, IndexEntries level)
      throws IOException {
    IndexEntries next = new IndexEntries();
    IndexEntries chunk = new IndexEntries();
    for (int i = 0; i < level.count(); i++) {
      chunk.add(level.key(i), level.offset(i), level.onDiskSize(i));
      if (i >= minEntries && chunk.rootSize() >= maxChunkSize) {
        writeIntermediate(writer, chunk, next);
      }
    }
    if (!chunk.isEmpty()) {
      writeIntermediate(writer, chunk, next);
    }
    return next;
  }

  private void writeIntermediate(BlockWriter writer, IndexEntries chunk, IndexEntries next)
      throws IOException {
    byte[] payload = chunk.toNonRoot();
    BlockWriter.WrittenBlock block =
        writer.write(BlockType.INTERMEDIATE_INDEX, payload, payload.length);
    uncompressedIndexSize += payload.length;
    rootAndIntermediateBytes += BlockHeader.SIZE + payload.length;
    next.add(chunk.key(0), block.offset(), block.onDiskSizeWithHeader());
    chunk.clear();
  }

  /** Which leaf holds the middle data block, and its entry number there. */
  private byte[] midKeyMetadata() {
    long middle = (dataBlocks - 1) / 2;
    int leafIndex = 0;
    while (leafLevel.cumulativeDataBlocks(leafIndex) <= middle) {
      leafIndex++;
    }
    long before = leafIndex == 0 ? 0 : leafLevel.cumulativeDataBlocks(leafIndex - 1);
    return new PayloadBuilder(16)
        .putLong(leafLevel.offset(leafIndex))
        .putInt(leafLevel.onDiskSize(leafIndex))
        .putInt((int) (middle - before))
        .toByteArray();
  }

  /**
   * The written index.
   *
   * @param rootOffset offset of the ROOT_INDEX block (the load-on-open offset)
   * @param levels number of index levels
   * @param rootEntries entries in the root
   * @param uncompressedSize payload bytes of every data index block
   * @param dataBlocks data blocks indexed
   * @param excludedFromTotal header and payload bytes of the root and intermediate blocks
   */
  record Result(
      long rootOffset,
      int levels,
      int rootEntries,
      long uncompressedSize,
      long dataBlocks,
      long excludedFromTotal) {}
}
