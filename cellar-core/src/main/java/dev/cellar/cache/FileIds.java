package dev.cellar.cache;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Interns file names to process-unique numeric ids, so a cache key hashes and compares two longs
 * instead of a string.
 *
 * <p>Concurrency: a {@link ConcurrentHashMap} maps names to ids and an {@link AtomicLong} hands out
 * ids; {@code computeIfAbsent} makes the first caller for a name assign its id atomically, so every
 * thread sees one id per name.
 *
 * <p>Memory: ids are never forgotten, so the registry grows by one entry per distinct file name the
 * process has cached blocks of (HFile names are never reused, and a process sees few of them
 * compared with the blocks it caches).
 */
public final class FileIds {

  private static final ConcurrentHashMap<String, Long> IDS = new ConcurrentHashMap<>();
  private static final AtomicLong NEXT = new AtomicLong(1);

  private FileIds() {}

  /** The id of {@code fileName}, assigning the next one on first use. */
  public static long idOf(String fileName) {
    Long id = IDS.get(fileName);
    return id != null ? id : IDS.computeIfAbsent(fileName, name -> NEXT.getAndIncrement());
  }

  /** The id of {@code fileName}, or 0 if no key of that file was ever made. */
  public static long existingIdOf(String fileName) {
    Long id = IDS.get(fileName);
    return id == null ? 0 : id;
  }
}
