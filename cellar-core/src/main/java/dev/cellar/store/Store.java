package dev.cellar.store;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.row.CollectedRow;
import dev.cellar.store.memstore.CellCursor;
import dev.cellar.store.memstore.MemStore;
import dev.cellar.store.memstore.MemStoreSize;
import dev.cellar.store.memstore.MemStoreSnapshot;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One column family of a region (HBase's HStore): a {@link MemStore} taking writes and the family's
 * HFiles, newest last, in one directory.
 *
 * <p><b>Reads</b> get a scanner per MemStore segment and per file that may hold the rows asked for
 * (key range, and the bloom filter for a single row); each file scanner holds a reference to its
 * file, so a compaction that replaces files never pulls them from under a read.
 *
 * <p><b>Flushes</b> happen in three steps the region drives: {@link #snapshot} (while the region
 * holds writes back), {@link #writeFlush} (writes the snapshot to a new file) and {@link
 * #commitFlush} (adds the file to the store and clears the snapshot), which the region delays until
 * every write in the snapshot is durable and visible. A snapshot records the log id and write
 * number it covers when it is taken; if its flush fails, the MemStore hands the same snapshot out
 * again and it keeps those ids, since the writes after it stay in the active segment. The store's
 * {@link #flushedWalId()} is the log id up to which every edit of the family is in its files: what
 * recovery replays this family after, and, the lowest over the families, what the log may drop.
 * <b>Compactions</b> merge files into one: minor ones keep every cell, major ones drop deleted,
 * expired and surplus versions.
 *
 * <p><b>Concurrency.</b> The file list is an immutable list in a volatile field, replaced under
 * {@code filesLock} by flushes and compactions; readers take the current list without a lock. One
 * compaction runs at a time ({@code compactionLock}). The family's settings are a volatile field
 * too, replaced by an alter; a flush, compaction or read reads them once when it starts.
 */
public final class Store implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Store.class);

  private static final Comparator<StoreFile> OLDEST_FIRST =
      Comparator.comparingLong(StoreFile::maxSequenceId);

  private final Storage storage;
  private final Manifest manifest;
  private final Path directory;

  /** Replaced when the family's attributes change; files written afterwards take the new ones. */
  private volatile FamilySettings family;

  private final MemStore memStore;
  private final BlockCache cache;
  private final MissRatioCurveTracker curve;
  private final BufAllocator allocator;
  private final CompactionPolicy policy;
  private final boolean cacheCompressedData;
  private final ReentrantLock filesLock = new ReentrantLock();
  private final ReentrantLock compactionLock = new ReentrantLock();

  /** Set when {@link #close()} starts: a running compaction then drops its throughput limit. */
  private volatile boolean closing;

  private volatile List<StoreFile> files;

  /** Every edit of the family with a log id up to this one is in the files. */
  private volatile long flushedWalId;

  /** The snapshot being flushed and the ids it covers; null when none. Guarded by the region. */
  private Flush pending;

  /**
   * Opens the family's directory (creating it), the files {@code manifest} lists as live, and an
   * empty MemStore; every change to the family's files goes through {@code storage} and is recorded
   * in {@code manifest} before it takes effect.
   */
  Store(
      Storage storage,
      Manifest manifest,
      Path directory,
      FamilySettings family,
      MemStore memStore,
      BlockCache cache,
      MissRatioCurveTracker curve,
      BufAllocator allocator,
      CompactionPolicy policy,
      boolean cacheCompressedData)
      throws IOException {
    this.storage = storage;
    this.manifest = manifest;
    this.directory = directory;
    this.family = family;
    this.memStore = memStore;
    this.cache = cache;
    this.curve = curve;
    this.allocator = allocator;
    this.policy = policy;
    this.cacheCompressedData = cacheCompressedData;
    storage.createDirectories(directory);
    deleteLeftovers(directory.resolve(StoreFileWriter.TMP_DIRECTORY));
    List<StoreFile> opened = new ArrayList<>();
    try {
      for (String name : manifest.files(family.nameString())) {
        opened.add(openFile(directory.resolve(name)));
      }
    } catch (IOException | RuntimeException e) {
      opened.forEach(StoreFile::close);
      throw e;
    }
    opened.sort(OLDEST_FIRST);
    this.files = List.copyOf(opened);
    this.flushedWalId =
        Math.max(
            manifest.flushedWalId(family.nameString()),
            opened.stream().mapToLong(StoreFile::maxWalId).max().orElse(0));
  }

  private StoreFile openFile(Path path) throws IOException {
    return StoreFile.open(
        storage, path, allocator, cache, curve, family.inMemory(), cacheCompressedData);
  }

  private void deleteLeftovers(Path tmp) throws IOException {
    for (Path leftover : storage.list(tmp)) {
      LOG.info("deleting {}, left by an interrupted flush or compaction", leftover);
      storage.deleteIfExists(leftover);
    }
  }

  public FamilySettings family() {
    return family;
  }

  /**
   * Takes the family's new attributes: flushes and compactions that start afterwards write with
   * them, and reads that start afterwards apply its versions and TTL; files already written keep
   * the block size, encoding, compression and bloom filter they were written with, which their
   * readers take from the files themselves.
   *
   * @throws IllegalArgumentException if {@code changed} names another family
   */
  void changeSettings(FamilySettings changed) {
    if (!changed.nameString().equals(family.nameString())) {
      throw new IllegalArgumentException(
          "store of family "
              + family.nameString()
              + " cannot take the settings of family "
              + changed.nameString());
    }
    family = changed;
  }

  /**
   * Takes the store out of its table, whose family was deleted: waits for a running compaction,
   * retires every file (each is deleted once no reader holds it, so an open scanner keeps reading
   * it) and retires the MemStore (its memory returns once the cursors open over it close). Reads
   * that start afterwards find the store empty.
   */
  void drop() {
    closing = true;
    compactionLock.lock();
    filesLock.lock();
    try {
      files.forEach(StoreFile::retire);
      files = List.of();
    } finally {
      filesLock.unlock();
      compactionLock.unlock();
    }
    memStore.retire();
  }

  /**
   * Adds a copy of {@code cell} with write number {@code sequenceId} to the MemStore, a timestamp
   * of {@code LATEST_TIMESTAMP} becoming {@code latestTimestamp} in the copy.
   */
  void add(Cell cell, long sequenceId, long latestTimestamp) {
    memStore.add(cell, sequenceId, latestTimestamp);
  }

  public MemStoreSize memStoreSize() {
    return memStore.size();
  }

  MemStore memStore() {
    return memStore;
  }

  /** The current files, oldest first: an immutable list replaced whenever the set changes. */
  List<StoreFile> currentFiles() {
    return files;
  }

  /** The MemStore's heap plus off-heap bytes (its size's footprint), allocating nothing. */
  long memStoreFootprint() {
    return memStore.footprint();
  }

  /** The highest sequence id in the family's files. */
  long maxSequenceId() {
    return files.stream().mapToLong(StoreFile::maxSequenceId).max().orElse(0);
  }

  /**
   * The log id up to which every edit of the family is in its files (from the files when opened,
   * then from each committed flush): replay skips the family's edits up to it.
   */
  long flushedWalId() {
    return flushedWalId;
  }

  public int fileCount() {
    return files.size();
  }

  /** The files' paths, oldest first. */
  public List<Path> filePaths() {
    return files.stream().map(StoreFile::path).toList();
  }

  /**
   * Scanners over the MemStore cells visible at {@code readPoint} and over the files that may hold
   * rows in [startRow, stopRow) with timestamps from {@code oldestWanted} on (the time range's
   * start, or the TTL's horizon); with {@code row} set (a Get), files whose bloom filter excludes
   * it are skipped too. The caller merges and closes them.
   *
   * <p>The MemStore's cursors are opened before the file list is read: a flush running meanwhile
   * moves cells from the MemStore's snapshot into a new file and only then clears the snapshot, so
   * the read sees those cells in one place or both (the same cells twice merge harmlessly), never
   * in neither.
   */
  List<KeyValueScanner> scanners(
      long readPoint,
      boolean cacheBlocks,
      byte[] startRow,
      byte[] stopRow,
      byte[] row,
      long oldestWanted)
      throws IOException {
    List<KeyValueScanner> scanners = new ArrayList<>();
    try {
      long order = Long.MAX_VALUE;
      for (CellCursor cursor : memStore.getScanners(readPoint)) {
        scanners.add(new MemStoreScanner(cursor, order--));
      }
      scanners.addAll(
          fileScanners(
              readPoint, cacheBlocks && family.blockCache(), startRow, stopRow, row, oldestWanted));
    } catch (IOException | RuntimeException e) {
      scanners.forEach(KeyValueScanner::close);
      throw e;
    }
    return scanners;
  }

  /**
   * Scanners over the current files that may hold the rows asked for and are visible at {@code
   * readPoint} (the files of a bulk load in progress are not, see {@link StoreFile#visibleAt}). A
   * file retired by a compaction between reading the list and opening it is released already; the
   * list is then read again, since the compaction's output holds that file's cells.
   */
  private List<KeyValueScanner> fileScanners(
      long readPoint,
      boolean cacheBlocks,
      byte[] startRow,
      byte[] stopRow,
      byte[] row,
      long oldestWanted)
      throws IOException {
    for (; ; ) {
      List<KeyValueScanner> opened = new ArrayList<>();
      boolean stale = false;
      try {
        for (StoreFile file : files) {
          if (!file.overlaps(startRow, stopRow)
              || !file.mayHoldTimestampsFrom(oldestWanted)
              || !file.visibleAt(readPoint)) {
            continue;
          }
          if (!file.acquire()) {
            stale = true;
            break;
          }
          if (row != null && !mightContainRow(file, row)) {
            file.release();
            continue;
          }
          opened.add(file.scannerOwningReference(cacheBlocks, file.maxSequenceId()));
        }
      } catch (IOException | RuntimeException e) {
        opened.forEach(KeyValueScanner::close);
        throw e;
      }
      if (!stale) {
        return opened;
      }
      opened.forEach(KeyValueScanner::close);
    }
  }

  /** The file's bloom answer, releasing the caller's reference if the lookup fails. */
  private static boolean mightContainRow(StoreFile file, byte[] row) throws IOException {
    try {
      return file.mightContainRow(row);
    } catch (IOException | RuntimeException e) {
      file.release();
      throw e;
    }
  }

  /**
   * A MemStore snapshot to flush and what it covers: every write numbered up to {@code
   * maxSequenceId} and every log entry up to {@code walId} of the family is in it or in the files.
   */
  record Flush(MemStoreSnapshot snapshot, long maxSequenceId, long walId) {}

  /**
   * Moves the MemStore's cells to its snapshot, which covers write numbers up to {@code
   * maxSequenceId} and log ids up to {@code walId}; the region holds writes back meanwhile. A
   * snapshot whose flush failed is returned again with the ids it was taken with: the writes since
   * then are in the active segment, not in it.
   */
  Flush snapshot(long maxSequenceId, long walId) {
    MemStoreSnapshot snapshot = memStore.snapshot();
    if (pending == null || pending.snapshot().id() != snapshot.id()) {
      pending = new Flush(snapshot, maxSequenceId, walId);
    }
    return pending;
  }

  /**
   * Writes the flush's snapshot to a new file recording its ids, and returns it; reads do not see
   * it until {@link #commitFlush}. Returns null for an empty snapshot, writing nothing.
   */
  Path writeFlush(Flush flush) throws IOException {
    if (flush.snapshot().isEmpty()) {
      return null;
    }
    String name = StoreFileWriter.newName();
    manifest.recordIntent(Map.of(family.nameString(), List.of(name)));
    try (CellCursor cursor = flush.snapshot().cursor()) {
      return StoreFileWriter.write(
          storage,
          directory,
          name,
          family,
          cursor::next,
          StoreFileWriter.Origin.flush(flush.maxSequenceId(), flush.walId()),
          family.fileContext().includesTags());
    }
  }

  /**
   * Deletes a file {@link #writeFlush} wrote that will not be committed (another family's flush
   * failed): the snapshot stays and is written again by the next flush.
   */
  void discardFlush(Path written) throws IOException {
    storage.deleteIfExists(written);
  }

  /** Opens a file {@link #writeFlush} wrote, for {@link #commitFlush}; the caller owns it. */
  StoreFile openFlushed(Path written) throws IOException {
    return openFile(written);
  }

  /** The manifest edit recording {@code flush} and its file ({@code written}, null for none). */
  Manifest.Edit flushEdit(Flush flush, Path written) {
    return new Manifest.Edit(
        family.nameString(),
        flush.walId(),
        written == null ? List.of() : List.of(written.getFileName().toString()),
        List.of());
  }

  /**
   * Adds the file the flush wrote ({@code written}, opened by {@link #openFlushed}; null for none)
   * to the store, after the region recorded it in the manifest, and clears the snapshot: from then
   * on reads find the snapshot's cells in the file, and the family is flushed up to the flush's log
   * id.
   */
  void commitFlush(Flush flush, StoreFile written) {
    if (written != null) {
      replaceFiles(List.of(), written);
    }
    memStore.clearSnapshot(flush.snapshot().id());
    pending = null;
    flushedWalId = Math.max(flushedWalId, flush.walId());
  }

  /**
   * The current files, each with a reference the caller releases ({@link StoreFile#release}): while
   * held, a compaction that retires them cannot delete them. A file retired between reading the
   * list and taking its reference makes it read the newer list again.
   */
  List<StoreFile> pinFiles() {
    for (; ; ) {
      List<StoreFile> current = files;
      List<StoreFile> pinned = new ArrayList<>(current.size());
      for (StoreFile file : current) {
        if (!file.acquire()) {
          break;
        }
        pinned.add(file);
      }
      if (pinned.size() == current.size()) {
        return pinned;
      }
      pinned.forEach(StoreFile::release);
    }
  }

  /**
   * The directory files to bulk load are staged in before they join the store (the family's {@code
   * .tmp}, emptied when the table opens), created if needed.
   */
  Path stagingDirectory() throws IOException {
    Path tmp = directory.resolve(StoreFileWriter.TMP_DIRECTORY);
    storage.createDirectories(tmp);
    return tmp;
  }

  /**
   * Renames a staged file into the family directory as {@code name} and forces the directory; the
   * file is not part of the store until the manifest records it.
   */
  Path placeLoaded(Path staged, String name) throws IOException {
    Path target = directory.resolve(name);
    storage.rename(staged, target);
    storage.syncDirectory(directory);
    return target;
  }

  /** Renames a file {@link #placeLoaded} placed back to where it was staged. */
  void unplaceLoaded(Path placed, Path staged) throws IOException {
    storage.rename(placed, staged);
  }

  /** Adds bulk-loaded files (opened, and recorded in the manifest) to the store. */
  void addLoaded(List<StoreFile> loaded) {
    for (StoreFile file : loaded) {
      replaceFiles(List.of(), file);
    }
  }

  /** True if a minor compaction would find files to merge. */
  public boolean needsCompaction() {
    return policy.select(files.stream().map(StoreFile::size).toList()) != null;
  }

  /**
   * Compacts the store: a major compaction merges every file into one without deleted, expired or
   * surplus versions; a minor one merges the files the policy selects, keeping every cell.
   *
   * @param nowMillis the time TTLs are measured against
   * @param throttle what limits the compaction's write rate ({@link CompactionThrottle#NONE} for
   *     none)
   * @return whether any files were compacted
   */
  public boolean compact(boolean major, long nowMillis, CompactionThrottle throttle)
      throws IOException {
    compactionLock.lock();
    try {
      List<StoreFile> current = files;
      List<StoreFile> selected = select(current, major);
      if (selected.isEmpty()) {
        return false;
      }
      boolean all = selected.size() == current.size();
      long maxSequenceId = selected.stream().mapToLong(StoreFile::maxSequenceId).max().orElse(0);
      long maxWalId = selected.stream().mapToLong(StoreFile::maxWalId).max().orElse(0);
      Path written;
      try (CompactionThrottle.Operation control =
          throttle.start(() -> throttle.pressure(files.size(), policy.minFiles()), () -> closing)) {
        written =
            writeCompacted(selected, major && all, nowMillis, maxSequenceId, maxWalId, control);
      }
      StoreFile replacement = openFile(written);
      try {
        manifest.append(
            List.of(
                new Manifest.Edit(
                    family.nameString(),
                    Manifest.UNCHANGED,
                    List.of(written.getFileName().toString()),
                    selected.stream().map(file -> file.path().getFileName().toString()).toList())));
      } catch (IOException | RuntimeException e) {
        // The record may have reached the disk: the output stays, and the next open keeps it or
        // deletes it as unrecorded.
        replacement.close();
        throw e;
      }
      replaceFiles(selected, replacement);
      selected.forEach(StoreFile::retire);
      LOG.info(
          "{} compaction of {} in {}: {} files into {}",
          major ? "major" : "minor",
          family.nameString(),
          directory,
          selected.size(),
          replacement);
      return true;
    } finally {
      compactionLock.unlock();
    }
  }

  private List<StoreFile> select(List<StoreFile> current, boolean major) {
    if (major) {
      return current.size() > 1 || (current.size() == 1 && !current.get(0).majorCompacted())
          ? current
          : List.of();
    }
    int[] range = policy.select(current.stream().map(StoreFile::size).toList());
    return range == null ? List.of() : current.subList(range[0], range[1]);
  }

  private Path writeCompacted(
      List<StoreFile> selected,
      boolean dropDeletes,
      long nowMillis,
      long maxSequenceId,
      long maxWalId,
      CompactionThrottle.Operation control)
      throws IOException {
    FamilySettings settings = family;
    List<KeyValueScanner> sources = new ArrayList<>();
    for (StoreFile file : selected) {
      KeyValueScanner scanner = file.scanner(false, file.maxSequenceId());
      if (scanner == null) {
        sources.forEach(KeyValueScanner::close);
        throw new IllegalStateException(file + " was released while being compacted");
      }
      sources.add(scanner);
    }
    boolean tags = selected.stream().anyMatch(StoreFile::includesTags);
    List<String> inputs =
        selected.stream().map(file -> file.path().getFileName().toString()).toList();
    String name = StoreFileWriter.newName();
    try {
      manifest.recordIntent(Map.of(settings.nameString(), List.of(name)));
    } catch (IOException | RuntimeException e) {
      sources.forEach(KeyValueScanner::close);
      throw e;
    }
    StoreFileWriter.Origin origin =
        new StoreFileWriter.Origin(maxSequenceId, maxWalId, dropDeletes, inputs);
    if (!dropDeletes) {
      try (KeyValueHeap heap = new KeyValueHeap(seekAll(sources))) {
        return StoreFileWriter.write(
            storage,
            directory,
            name,
            settings,
            throttled(new HeapSource(heap), control),
            origin,
            tags);
      }
    }
    ScanSpec spec =
        new ScanSpec(
            null,
            settings.maxVersions(),
            0,
            Long.MAX_VALUE,
            settings.ttlMillis(),
            settings.minVersions(),
            nowMillis,
            null);
    try (StoreScanner scanner =
            new StoreScanner(sources, spec, KeyValue.firstOnRow(new byte[0]), false);
        RowSource rows = new RowSource(scanner)) {
      return StoreFileWriter.write(
          storage, directory, name, settings, throttled(rows, control), origin, tags);
    }
  }

  /** {@code source}, each cell counted against the compaction's throughput limit. */
  private static StoreFileWriter.CellSource throttled(
      StoreFileWriter.CellSource source, CompactionThrottle.Operation control) {
    return () -> {
      Cell cell = source.next();
      if (cell != null) {
        try {
          control.wrote(cell.length());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("compaction interrupted while throttled");
        }
      }
      return cell;
    };
  }

  /** Positions {@code sources} on their first cell; if one fails, closes them all and throws. */
  private static List<KeyValueScanner> seekAll(List<KeyValueScanner> sources) throws IOException {
    KeyValue start = KeyValue.firstOnRow(new byte[0]);
    try {
      for (KeyValueScanner source : sources) {
        source.seek(start);
      }
    } catch (IOException | RuntimeException e) {
      sources.forEach(KeyValueScanner::close);
      throw e;
    }
    return sources;
  }

  /** Every cell of a merged heap, in order (a minor compaction keeps them all). */
  private static final class HeapSource implements StoreFileWriter.CellSource {
    private final KeyValueHeap heap;
    private boolean started;

    HeapSource(KeyValueHeap heap) {
      this.heap = heap;
    }

    @Override
    public Cell next() throws IOException {
      if (started) {
        heap.next();
      }
      started = true;
      return heap.peek();
    }
  }

  /**
   * The cells a user scan of every version would see, row by row (a major compaction's output),
   * each row held until the writer has taken its cells.
   */
  private static final class RowSource implements StoreFileWriter.CellSource, AutoCloseable {
    private final StoreScanner scanner;
    private final CollectedRow row = new CollectedRow();
    private int next;

    RowSource(StoreScanner scanner) {
      this.scanner = scanner;
    }

    @Override
    public Cell next() throws IOException {
      while (next == row.size()) {
        row.clear();
        next = 0;
        if (scanner.peek() == null) {
          return null;
        }
        scanner.collectRow(row);
      }
      return row.get(next++);
    }

    /** Drops the pins of the row held, should the writer stop before the end. */
    @Override
    public void close() {
      row.clear();
    }
  }

  /** Swaps {@code removed} for {@code added} (null: nothing) in the file list. */
  private void replaceFiles(List<StoreFile> removed, StoreFile added) {
    filesLock.lock();
    try {
      List<StoreFile> next = new ArrayList<>(files);
      next.removeAll(removed);
      if (added != null) {
        next.add(added);
      }
      next.sort(OLDEST_FIRST);
      files = List.copyOf(next);
    } finally {
      filesLock.unlock();
    }
  }

  /**
   * Closes the files (keeping them) and the MemStore, after a running compaction; unflushed cells
   * are the region's concern.
   */
  @Override
  public void close() {
    closing = true;
    compactionLock.lock();
    filesLock.lock();
    try {
      files.forEach(StoreFile::close);
      files = List.of();
    } finally {
      filesLock.unlock();
      compactionLock.unlock();
    }
    memStore.close();
  }
}
