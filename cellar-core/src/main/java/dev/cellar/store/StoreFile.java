package dev.cellar.store;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.hfile.CachingBlockLoader;
import dev.cellar.hfile.FileInfo;
import dev.cellar.hfile.HFileReader;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HFile of a store, open for reading through the block cache, with what the read path needs to
 * skip it (its row range and bloom filter) and what recovery needs (the highest sequence id and
 * write-ahead-log id of its cells).
 *
 * <p><b>Lifetime.</b> A reference count: the store holds one while the file is part of it, every
 * scanner one while it reads. A compaction that replaces the file {@link #retire()}s it (drops the
 * store's reference); the reader is closed, the file deleted and its blocks evicted from the cache
 * when the last scanner closes (a store that closes keeps its files), so reads in flight during a
 * compaction finish on the files they started with. Thread-safe.
 */
final class StoreFile {

  private static final Logger LOG = LoggerFactory.getLogger(StoreFile.class);

  /** File info key: the highest write-ahead-log id whose edits the file holds. */
  static final String MAX_WAL_ID_KEY = "CELLAR_MAX_WAL_ID";

  /** File info key: the highest cell timestamp in the file. */
  static final String MAX_TIMESTAMP_KEY = "CELLAR_MAX_TIMESTAMP";

  private final Path path;
  private final HFileReader reader;
  private final BlockCache cache;
  private final Storage storage;
  private final long maxSequenceId;

  /** The id every cell reads with, for a bulk-loaded file (see {@link BulkLoadNames}); else -1. */
  private final long loadedSequenceId;

  private final long maxWalId;
  private final boolean majorCompacted;
  private final long maxTimestamp;

  /** When the file was written ({@code hfile.CREATE_TIME_TS}), or 0 if it does not say. */
  private final long createTime;

  private final byte[] firstRow;
  private final byte[] lastRow;
  private final long size;
  private final AtomicInteger references = new AtomicInteger(1);
  private volatile boolean deleteWhenReleased;

  private StoreFile(Path path, HFileReader reader, BlockCache cache, Storage storage)
      throws IOException {
    this.path = path;
    this.reader = reader;
    this.cache = cache;
    this.storage = storage;
    FileInfo info = reader.fileInfo();
    this.loadedSequenceId = BulkLoadNames.sequenceId(path.getFileName().toString());
    this.maxSequenceId =
        loadedSequenceId >= 0 ? loadedSequenceId : info.getLong(FileInfo.MAX_SEQ_ID_KEY, 0);
    this.maxWalId = info.getLong(MAX_WAL_ID_KEY, 0);
    this.majorCompacted = info.getBoolean(FileInfo.MAJOR_COMPACTION_KEY, false);
    this.maxTimestamp = info.getLong(MAX_TIMESTAMP_KEY, Long.MAX_VALUE);
    this.createTime = info.getLong(FileInfo.CREATE_TIME_TS, 0);
    this.firstRow = reader.entryCount() == 0 ? Bytes.EMPTY : rowOf(reader.firstKey());
    this.lastRow = reader.entryCount() == 0 ? Bytes.EMPTY : rowOf(reader.lastKey());
    this.size = storage.size(path);
  }

  /**
   * Opens {@code path}, reading through {@code cache} when not null; a retired file is deleted
   * through {@code storage}.
   *
   * @param curve the miss-ratio curve the file's block lookups feed, or null
   * @param inMemory whether the family's blocks get the in-memory priority
   * @param cacheCompressedData whether a compressed file's data blocks are cached compressed
   */
  static StoreFile open(
      Storage storage,
      Path path,
      BufAllocator allocator,
      BlockCache cache,
      MissRatioCurveTracker curve,
      boolean inMemory,
      boolean cacheCompressedData)
      throws IOException {
    HFileReader reader =
        cache == null
            ? HFileReader.open(storage, path, allocator, UnaryOperator.identity())
            : HFileReader.open(
                storage,
                path,
                allocator,
                direct ->
                    new CachingBlockLoader(
                        cache, direct, path.toString(), inMemory, cacheCompressedData, curve));
    try {
      return new StoreFile(path, reader, cache, storage);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  private static byte[] rowOf(byte[] key) {
    int rowLength = ((key[0] & 0xFF) << 8) | (key[1] & 0xFF);
    byte[] row = new byte[rowLength];
    System.arraycopy(key, 2, row, 0, rowLength);
    return row;
  }

  Path path() {
    return path;
  }

  long maxSequenceId() {
    return maxSequenceId;
  }

  long maxWalId() {
    return maxWalId;
  }

  /**
   * False for a bulk-loaded file whose sequence id is above {@code readPoint}: its load has not
   * completed for a read that started at that point, so the read sees every file of the load or
   * none (HBase skips a bulk-loaded file's cells newer than the read point too). Always true for a
   * flushed or compacted file.
   */
  boolean visibleAt(long readPoint) {
    return loadedSequenceId <= readPoint;
  }

  /** Whether the file's cells carry tags (a compaction of it keeps them). */
  boolean includesTags() {
    return reader.encodingContext().includesTags();
  }

  boolean majorCompacted() {
    return majorCompacted;
  }

  long size() {
    return size;
  }

  /** When the file was written, in milliseconds; 0 if it does not say. */
  long createTime() {
    return createTime;
  }

  /** The bytes of the file's blocks before compression (its trailer's total). */
  long uncompressedBytes() {
    return reader.trailer().totalUncompressedBytes();
  }

  /** The bytes of the whole data index, every level, uncompressed (from the trailer). */
  long indexBytes() {
    return reader.trailer().uncompressedDataIndexSize();
  }

  /** The bytes the index roots hold on the heap while the file is open. */
  long rootIndexBytes() {
    return reader.rootIndexBytes();
  }

  /** The bytes of the general bloom filter; 0 when there is none. */
  long bloomBytes() {
    return reader.generalBloomBytes();
  }

  long entryCount() {
    return reader.entryCount();
  }

  /** False if the file provably holds no cell of a row in [startRow, stopRow) (empty: open). */
  boolean overlaps(byte[] startRow, byte[] stopRow) {
    if (reader.entryCount() == 0) {
      return false;
    }
    return Bytes.compare(lastRow, startRow) >= 0
        && (stopRow.length == 0 || Bytes.compare(firstRow, stopRow) < 0);
  }

  /** False if the file provably holds no cell of {@code row}. */
  boolean holdsRow(byte[] row) {
    return reader.entryCount() != 0
        && Bytes.compare(firstRow, row) <= 0
        && Bytes.compare(row, lastRow) <= 0;
  }

  /**
   * False if every cell of the file is older than {@code oldestWanted}: no put it holds can be
   * returned, and its delete markers can only mask puts older still.
   */
  boolean mayHoldTimestampsFrom(long oldestWanted) {
    return maxTimestamp >= oldestWanted;
  }

  /**
   * False if the bloom filter proves the file holds no cell of {@code row}. The caller holds a
   * reference (the bloom blocks are read through the file's reader).
   */
  boolean mightContainRow(byte[] row) throws IOException {
    return reader.mightContain(row, null);
  }

  /** {@link #mightContainRow(byte[])} for the row of a key-only cell, without a copy. */
  boolean mightContainRowOf(Cell rowKey) throws IOException {
    return reader.mightContainRow(rowKey.segment(), rowKey.rowOffset(), rowKey.rowLength());
  }

  /**
   * A scanner holding a reference to the file until it closes; null if the file was retired and
   * released meanwhile (the caller then uses the store's newer file list).
   */
  KeyValueScanner scanner(boolean cacheBlocks, long order) {
    if (!acquire()) {
      return null;
    }
    return new StoreFileScanner(reader, cacheBlocks, order, this::release, loadedSequenceId);
  }

  /** A scanner taking over a reference the caller {@link #acquire}d, released when it closes. */
  KeyValueScanner scannerOwningReference(boolean cacheBlocks, long order) {
    return new StoreFileScanner(reader, cacheBlocks, order, this::release, loadedSequenceId);
  }

  /**
   * A scanner for one reader thread's point reads, kept across reads: it holds no reference to the
   * file, so the caller {@link #acquire}s the file around each use and parks the scanner
   * afterwards.
   */
  StoreFileScanner pointScanner(boolean cacheBlocks) {
    return new StoreFileScanner(reader, cacheBlocks, maxSequenceId, () -> {}, loadedSequenceId);
  }

  /** Adds a reference unless the last one is gone. */
  boolean acquire() {
    for (; ; ) {
      int count = references.get();
      if (count == 0) {
        return false;
      }
      if (references.compareAndSet(count, count + 1)) {
        return true;
      }
    }
  }

  /** Drops the store's reference: the file is deleted once no scanner reads it. */
  void retire() {
    deleteWhenReleased = true;
    release();
  }

  /** Drops the store's reference, keeping the file (the store closes). */
  void close() {
    release();
  }

  /** Drops a reference; the last one closes the reader, and deletes a retired file. */
  void release() {
    if (references.decrementAndGet() != 0) {
      return;
    }
    try {
      reader.close();
      if (cache != null) {
        cache.evictBlocksByHfileName(path.toString());
      }
      if (deleteWhenReleased) {
        storage.deleteIfExists(path);
      }
    } catch (IOException e) {
      LOG.warn("closing store file {} failed", path, e);
    }
  }

  @Override
  public String toString() {
    return path.getFileName() + "[seq " + maxSequenceId + ", " + size + " bytes]";
  }
}
