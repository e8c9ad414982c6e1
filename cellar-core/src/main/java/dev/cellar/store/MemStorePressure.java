package dev.cellar.store;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The limit on all MemStores of a database together, as HBase's region server keeps it ({@code
 * hbase.regionserver.global.memstore.size}, or its off-heap size in MiB): each region flushes at
 * its own flush size, but a table of many regions, each below it, could hold many times the memory;
 * above {@value #LOW_MARK_PERCENT}% of the limit (HBase's {@code
 * hbase.regionserver.global.memstore.size.lower.limit}) the region holding the most is flushed in
 * the background, and a writer that finds the limit reached flushes it itself before its call
 * returns, as HBase blocks updates until flushes bring the total down.
 *
 * <p><b>Accounting.</b> Regions report how their MemStores grew after each write ({@link #grew});
 * the sum is approximate (flushes shrink regions without reporting), so crossing the low mark makes
 * this add up every registered region's footprint exactly, and act on that. Below the mark a write
 * costs one atomic add.
 *
 * <p>Thread-safe: writers of any region call {@link #grew} concurrently; at most one background
 * flush is queued at a time.
 */
public final class MemStorePressure {

  private static final Logger LOG = LoggerFactory.getLogger(MemStorePressure.class);
  private static final int LOW_MARK_PERCENT = 95;

  private final long limit;
  private final long lowMark;
  private final Executor flusher;
  private final Set<Region> regions = ConcurrentHashMap.newKeySet();
  private final AtomicLong approximate = new AtomicLong();
  private final AtomicBoolean flushQueued = new AtomicBoolean();

  /**
   * @param limit the bytes all MemStores may hold together
   * @param flusher where background flushes run
   */
  public MemStorePressure(long limit, Executor flusher) {
    if (limit <= 0) {
      throw new IllegalArgumentException(
          "the global MemStore limit must be positive, was " + limit);
    }
    this.limit = limit;
    this.lowMark = limit / 100 * LOW_MARK_PERCENT;
    this.flusher = flusher;
  }

  /** No limit across regions: each flushes at its own size only. */
  public static MemStorePressure unlimited(Executor flusher) {
    return new MemStorePressure(Long.MAX_VALUE, flusher);
  }

  /** The bytes all MemStores may hold together. */
  public long limit() {
    return limit;
  }

  void register(Region region) {
    regions.add(region);
  }

  void unregister(Region region) {
    regions.remove(region);
  }

  /**
   * Takes a region's report that its MemStores grew by {@code delta} bytes (less than 0 after a
   * flush it saw); over the low mark, relieves the pressure.
   *
   * @throws IOException if the flush a writer makes at the limit fails
   */
  void grew(long delta) throws IOException {
    if (approximate.addAndGet(delta) >= lowMark) {
      relieve();
    }
  }

  /** The exact total now: flushes the largest region if the total is over the marks. */
  private void relieve() throws IOException {
    long total = 0;
    Region largest = null;
    long largestSize = 0;
    for (Region region : regions) {
      long size = region.memStoreFootprint();
      total += size;
      if (size > largestSize) {
        largest = region;
        largestSize = size;
      }
    }
    approximate.set(total);
    if (largest == null || total < lowMark) {
      return;
    }
    if (total >= limit) {
      largest.flushIfOpen();
      return;
    }
    if (flushQueued.compareAndSet(false, true)) {
      Region chosen = largest;
      flusher.execute(
          () -> {
            try {
              chosen.flushIfOpen();
            } catch (IOException | RuntimeException e) {
              LOG.error("flushing {} to relieve the MemStores' limit failed", chosen, e);
            } finally {
              flushQueued.set(false);
            }
          });
    }
  }
}
