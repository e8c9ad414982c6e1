package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.search.SearchKey;
import dev.cellar.row.CollectedRow;
import dev.cellar.store.memstore.PointCursor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One reader thread's state for reading single rows of one {@link Store}, kept from read to read so
 * that a read of a cached row allocates nothing: the MemStore's point cursors, a scanner and a
 * bloom gate per file (the scanner with its block seeker and index pointer), the merge heap, the
 * query matcher and the seek keys.
 *
 * <p><b>A read</b> ({@link #read}) opens the MemStore's cursors first and reads the file list after
 * (as {@link Store#scanners} does, so a racing flush shows its cells in one place or both), skips
 * files by key range, time range and bloom filter (asked as the file's {@link BloomGate} says),
 * takes a reference on each file it reads, seeks every source to the row, merges only those that
 * hold it, sifts the row's cells through the matcher and adds the survivors to the caller's {@link
 * CollectedRow} (when one source holds the row and the read wants the newest put of every column,
 * {@link LatestPutsCollector} takes the row without the matcher unless it meets a marker).
 * Afterwards every source is parked (its block released), every MemStore cursor closed and every
 * file reference dropped: the state pins nothing between reads; the row holder pins what its cells
 * need.
 *
 * <p><b>Files</b> come and go with flushes and compactions: the per-file scanners are looked up by
 * file identity, and the map is pruned when the store's file list changes. A scanner is used only
 * while its file is {@link StoreFile#acquire acquired}, so its reader is open; a file retired
 * before it could be acquired makes the read take the newer list (see {@link #addFiles}).
 *
 * <p>Not thread-safe: one per reader thread and store.
 */
final class StorePointRead {

  /** The cells a column skip steps over before it reseeks. */
  private static final int COLUMN_STEPS = 4;

  private final Store store;
  private final PointCursor[] memCursors = {new PointCursor(), new PointCursor()};
  private final MemStoreScanner[] memScanners = {
    new MemStoreScanner(memCursors[0], Long.MAX_VALUE),
    new MemStoreScanner(memCursors[1], Long.MAX_VALUE - 1)
  };
  private final Map<StoreFile, FileReads> fileReads = new IdentityHashMap<>();
  private List<StoreFile> knownFiles = List.of();
  private final List<KeyValueScanner> sources = new ArrayList<>();
  private final List<StoreFile> acquired = new ArrayList<>();
  private final List<StoreFileScanner> used = new ArrayList<>();
  private final KeyValueHeap heap = new KeyValueHeap();
  private final SearchKey seekKey = new SearchKey();
  private final SearchKey hintKey = new SearchKey();
  private ScanQueryMatcher matcher;

  StorePointRead(Store store) {
    this.store = store;
  }

  /**
   * Adds the cells of {@code row} that {@code spec} selects, as seen at {@code readPoint}, to
   * {@code out}.
   *
   * @param rowStart the first key of the row (a key-only cell over the row's bytes)
   * @param nowMillis the time TTLs are measured against
   */
  void read(
      byte[] row,
      Cell rowStart,
      ScanSpec spec,
      long readPoint,
      long nowMillis,
      boolean cacheBlocks,
      CollectedRow out)
      throws IOException {
    int opened = store.memStore().openPointCursors(readPoint, memCursors);
    try {
      for (int i = 0; i < opened; i++) {
        if (memCursors[i].seek(rowStart)
            && CellComparator.sameRow(memCursors[i].peek(), rowStart)) {
          sources.add(memScanners[i]);
        }
      }
      long oldestWanted =
          spec.minVersions() > 0
              ? spec.minTimestamp()
              : Math.max(spec.minTimestamp(), spec.oldestUnexpiredTimestamp(nowMillis));
      addFiles(row, rowStart, oldestWanted, readPoint, cacheBlocks && store.family().blockCache());
      if (!sources.isEmpty()) {
        collect(rowStart, spec, nowMillis, out);
      }
    } finally {
      finish(opened);
    }
  }

  /**
   * Adds the files that may hold the row to the sources. A file retired by a compaction between
   * reading the list and acquiring it is released already: the file part of the read then starts
   * again from the newer list, which holds the compaction's output (as {@link Store#scanners}
   * does), so no cell is missed.
   */
  private void addFiles(
      byte[] row, Cell rowStart, long oldestWanted, long readPoint, boolean cacheBlocks)
      throws IOException {
    int memorySources = sources.size();
    while (!addFilesOf(store.currentFiles(), row, rowStart, oldestWanted, readPoint, cacheBlocks)) {
      while (sources.size() > memorySources) {
        sources.remove(sources.size() - 1);
      }
      releaseFiles();
    }
  }

  /** False, having stopped, if a file of {@code files} was retired before it was acquired. */
  private boolean addFilesOf(
      List<StoreFile> files,
      byte[] row,
      Cell rowStart,
      long oldestWanted,
      long readPoint,
      boolean cacheBlocks)
      throws IOException {
    if (files != knownFiles) {
      prune(files);
    }
    for (int i = 0; i < files.size(); i++) {
      StoreFile file = files.get(i);
      if (!file.holdsRow(row)
          || !file.mayHoldTimestampsFrom(oldestWanted)
          || !file.visibleAt(readPoint)) {
        continue;
      }
      if (!file.acquire()) {
        return false;
      }
      acquired.add(file);
      FileReads reads = readsOf(file, cacheBlocks);
      if (reads.bloom.ask()) {
        boolean mightContain = file.mightContainRowOf(rowStart);
        reads.bloom.answered(mightContain);
        if (!mightContain) {
          continue;
        }
      }
      StoreFileScanner scanner = reads.scanner;
      used.add(scanner);
      if (scanner.seek(rowStart) && CellComparator.sameRow(scanner.peek(), rowStart)) {
        sources.add(scanner);
      }
    }
    return true;
  }

  /**
   * What this thread keeps for reading {@code file}, made on its first read; the scanner is made
   * again for another cache flag.
   */
  private FileReads readsOf(StoreFile file, boolean cacheBlocks) {
    FileReads reads = fileReads.get(file);
    if (reads == null) {
      reads = new FileReads(file.pointScanner(cacheBlocks), new BloomGate());
      fileReads.put(file, reads);
    } else if (reads.scanner.cachesBlocks() != cacheBlocks) {
      reads = new FileReads(file.pointScanner(cacheBlocks), reads.bloom);
      fileReads.put(file, reads);
    }
    return reads;
  }

  private void prune(List<StoreFile> files) {
    fileReads.keySet().removeIf(file -> !files.contains(file));
    knownFiles = files;
  }

  private void collect(Cell rowStart, ScanSpec spec, long nowMillis, CollectedRow out)
      throws IOException {
    if (matcher == null) {
      matcher = new ScanQueryMatcher(spec, hintKey);
    }
    if (sources.size() == 1 && LatestPutsCollector.applies(spec)) {
      KeyValueScanner source = sources.get(0);
      if (LatestPutsCollector.collect(
          source, rowStart, spec.oldestUnexpiredTimestamp(nowMillis), spec, out)) {
        return;
      }
      source.seek(rowStart);
    }
    matcher.configure(spec, nowMillis);
    heap.reset(sources);
    matcher.startRow();
    for (Cell cell = heap.peek();
        cell != null && CellComparator.sameRow(cell, rowStart);
        cell = heap.peek()) {
      switch (matcher.match(cell)) {
        case INCLUDE -> {
          heap.collectCurrent(out);
          heap.next();
        }
        case INCLUDE_AND_SEEK_NEXT_COL -> {
          heap.collectCurrent(out);
          skipToNextColumn(cell);
        }
        case INCLUDE_AND_SEEK_NEXT_ROW -> {
          heap.collectCurrent(out);
          return;
        }
        case SKIP -> heap.next();
        case SEEK_NEXT_COL -> skipToNextColumn(cell);
        case SEEK_NEXT_ROW -> {
          return;
        }
        case SEEK_NEXT_USING_HINT -> heap.reseek(matcher.seekHint());
      }
    }
  }

  /**
   * Moves past every version of {@code cell}'s column: by steps while the next cells are few (a
   * column of one version, as most are, is left with one step, where a reseek would search the
   * block's index for the next column), by a reseek after {@value #COLUMN_STEPS} steps (HBase's
   * scanner does the same, bounded by the next block's index key).
   */
  private void skipToNextColumn(Cell cell) throws IOException {
    Cell columnEnd = seekKey.lastOnColumn(cell);
    for (int step = 0; step < COLUMN_STEPS; step++) {
      heap.next();
      Cell next = heap.peek();
      if (next == null || CellComparator.compareKeyIgnoringSequenceId(next, columnEnd) > 0) {
        return;
      }
    }
    heap.reseek(columnEnd);
  }

  /** Parks every scanner, closes the MemStore cursors and drops the file references. */
  private void finish(int openedCursors) {
    heap.reset(List.of());
    sources.clear();
    releaseFiles();
    for (int i = 0; i < openedCursors; i++) {
      memCursors[i].close();
    }
  }

  /** Parks the file scanners used and drops the file references taken. */
  private void releaseFiles() {
    for (int i = 0; i < used.size(); i++) {
      used.get(i).park();
    }
    used.clear();
    for (int i = 0; i < acquired.size(); i++) {
      acquired.get(i).release();
    }
    acquired.clear();
  }

  /** Forgets the per-file scanners (parked already, pinning nothing). */
  void close() {
    fileReads.clear();
    knownFiles = List.of();
  }

  /** One file's scanner and bloom gate, kept from read to read. */
  private record FileReads(StoreFileScanner scanner, BloomGate bloom) {}
}
