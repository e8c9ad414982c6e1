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

  /**
   * Adds {@code entry}. A file that has entries takes it into its set with no lambda or lock of
   * the map; the add then checks that the set is still the file's, as a removal may have dropped
   * it empty just before (a set holding the new entry is never dropped), and otherwise adds it as
   * a file's first entry is added, inside the map's {@code compute}.
   */
  void add(BucketEntry entry) {
    long fileId = entry.key.fileId();
    Set<BucketEntry> set = files.get(fileId);
    if (set != null) {
      set.add(entry);
      if (files.get(fileId) == set) {
        return;
      }
    }
    files.compute(fileId, (id, entries) -> {
      Set<BucketEntry> created = entries != null ? entries : ConcurrentHashMap.newKeySet();
      created.add(entry);
      return created;
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
