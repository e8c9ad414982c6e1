package dev.cellar.cache.bucket;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mapped entries of a {@link BucketCache}, grouped by file: a file's blocks are evicted
 * together when the file goes away, and the persister writes the index in file and offset order.
 *
 * <p><b>Why not an ordered map.</b> Every insert and eviction of the cache updates this index, on
 * the writer threads that cache misses: with a skip list ordered by file and offset, those updates
 * took a third of the writers' time when a cache a third the size of the data turned over. Hash
 * sets per file make an update a constant-time step; the one caller that needs order (the
 * persister, every few seconds at most) sorts.
 *
 * <p><b>Concurrency.</b> Thread-safe. A file's set is created and dropped inside the map's
 * per-key {@code compute}, so an add racing the removal of a file's last entry never lands in a
 * dropped set; iteration is weakly consistent, as the cache's backing map's.
 */
final class EntriesByFile {

  private static final Comparator<BucketEntry> BY_FILE_AND_OFFSET =
      Comparator.<BucketEntry>comparingLong(entry -> entry.key.fileId())
          .thenComparingLong(entry -> entry.key.offset());

  private final ConcurrentHashMap<Long, Set<BucketEntry>> files = new ConcurrentHashMap<>();

  void add(BucketEntry entry) {
    files.compute(entry.key.fileId(), (id, entries) -> {
      Set<BucketEntry> set = entries != null ? entries : ConcurrentHashMap.newKeySet();
      set.add(entry);
      return set;
    });
  }

  /** Removes this very entry (not another one of the same key). */
  void remove(BucketEntry entry) {
    files.computeIfPresent(entry.key.fileId(), (id, entries) -> {
      entries.remove(entry);
      return entries.isEmpty() ? null : entries;
    });
  }

  /** The entries of the file with {@code fileId}, weakly consistent. */
  Collection<BucketEntry> of(long fileId) {
    Set<BucketEntry> entries = files.get(fileId);
    return entries != null ? entries : List.of();
  }

  /** A snapshot of every entry, in file and offset order. */
  List<BucketEntry> inFileAndOffsetOrder() {
    List<BucketEntry> all = new ArrayList<>();
    for (Set<BucketEntry> entries : files.values()) {
      all.addAll(entries);
    }
    all.sort(BY_FILE_AND_OFFSET);
    return all;
  }
}
