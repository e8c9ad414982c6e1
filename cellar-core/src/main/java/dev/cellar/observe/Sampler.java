package dev.cellar.observe;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.CacheStats;
import dev.cellar.cache.tiered.TwoTierBlockCache;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.HistogramSnapshot;
import dev.cellar.metrics.Operation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The figures the web UI charts, taken every interval into a ring of the last {@link #capacity}
 * samples: each sample holds what happened since the previous one (operations per second, the
 * interval's p99 latencies read from the histograms' differences, each tier's hit ratio and
 * evictions, GC pause time) and the memory at that moment (heap used, off-heap held).
 *
 * <p>Concurrency: {@link #sample(long)} runs on the one thread {@value #THREAD} (or a test's); it
 * and {@link #samples()} synchronize on the ring, which is small, so readers copy it whole. The
 * previous raw snapshots are touched only by the sampling thread.
 */
public final class Sampler implements AutoCloseable {

  static final String THREAD = "cellar-metrics-sampler";

  /** One interval's figures; ratios are NaN when the tier saw no request in the interval. */
  public record Sample(
      long timeMillis,
      double getsPerSecond,
      double writesPerSecond,
      double scanRowsPerSecond,
      double getP99Micros,
      double writeP99Micros,
      double l1HitRatio,
      double l2HitRatio,
      long l1Evictions,
      long l2Evictions,
      long heapUsedBytes,
      long offHeapBytes,
      double gcPauseMillis) {}

  private final EngineMetrics metrics;
  private final BlockCache cache;
  private final MemorySource memory;
  private final int capacity;
  private final ArrayDeque<Sample> ring = new ArrayDeque<>();
  private ScheduledExecutorService executor;
  private long lastMillis = -1;
  private HistogramSnapshot lastGets;
  private HistogramSnapshot lastWrites;
  private long lastGetCount;
  private long lastWriteCount;
  private long lastScanCount;
  private HistogramSnapshot lastPauses;
  private CacheStats.Snapshot lastL1;
  private CacheStats.Snapshot lastL2;

  public Sampler(ObservedDatabase database, int capacity) {
    this.metrics = database.metrics();
    this.cache = database.cache();
    this.memory = new MemorySource(database.allocator(), database.chunkPool(), database.cache());
    this.capacity = capacity;
  }

  /** Samples every {@code intervalMillis} on a daemon thread until {@link #close()}. */
  public void start(long intervalMillis) {
    executor =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name(THREAD).daemon().factory());
    sample(System.currentTimeMillis());
    executor.scheduleAtFixedRate(
        () -> sample(System.currentTimeMillis()),
        intervalMillis,
        intervalMillis,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Takes a sample at {@code nowMillis}: the first call only records where the counters stand; each
   * later one adds what happened since to the ring, dropping the oldest when full.
   */
  public void sample(long nowMillis) {
    HistogramSnapshot gets = metrics.snapshot(Operation.GET);
    HistogramSnapshot writes = writes();
    HistogramSnapshot pauses = metrics.snapshot(Operation.GC_PAUSE);
    long getCount = metrics.operations(Operation.GET);
    long writeCount =
        metrics.operations(Operation.PUT)
            + metrics.operations(Operation.DELETE)
            + metrics.operations(Operation.PUT_BATCH);
    long scanCount = metrics.operations(Operation.SCAN_NEXT);
    CacheStats.Snapshot l1 = tierStats(0);
    CacheStats.Snapshot l2 = tierStats(1);
    if (lastMillis >= 0 && nowMillis > lastMillis) {
      double seconds = (nowMillis - lastMillis) / 1000.0;
      HistogramSnapshot intervalGets = gets.since(lastGets);
      HistogramSnapshot intervalWrites = writes.since(lastWrites);
      long heap = 0;
      long offHeap = 0;
      for (Metric metric : memory.read()) {
        if (metric.name().equals("heapUsedBytes")) {
          heap = (long) metric.number();
        } else if (metric.name().equals("offHeapBytes")) {
          offHeap = (long) metric.number();
        }
      }
      Sample sample =
          new Sample(
              nowMillis,
              (getCount - lastGetCount) / seconds,
              (writeCount - lastWriteCount) / seconds,
              (scanCount - lastScanCount) / seconds,
              intervalGets.percentile(0.99) / 1000.0,
              intervalWrites.percentile(0.99) / 1000.0,
              hitRatio(l1, lastL1),
              hitRatio(l2, lastL2),
              evictions(l1, lastL1),
              evictions(l2, lastL2),
              heap,
              offHeap,
              Math.max(0, pauses.sum() - lastPauses.sum()) / 1e6);
      synchronized (ring) {
        if (ring.size() == capacity) {
          ring.removeFirst();
        }
        ring.addLast(sample);
      }
    }
    lastMillis = nowMillis;
    lastGets = gets;
    lastWrites = writes;
    lastGetCount = getCount;
    lastWriteCount = writeCount;
    lastScanCount = scanCount;
    lastPauses = pauses;
    lastL1 = l1;
    lastL2 = l2;
  }

  /** Puts, deletes and batches as one histogram (they share the buckets' bounds). */
  private HistogramSnapshot writes() {
    HistogramSnapshot puts = metrics.snapshot(Operation.PUT);
    HistogramSnapshot deletes = metrics.snapshot(Operation.DELETE);
    HistogramSnapshot batches = metrics.snapshot(Operation.PUT_BATCH);
    return HistogramSnapshot.merge(List.of(puts, deletes, batches));
  }

  /** Tier {@code index}'s counters (the single cache counts as L1), or null. */
  private CacheStats.Snapshot tierStats(int index) {
    if (cache instanceof TwoTierBlockCache tiered) {
      return (index == 0 ? tiered.l1() : tiered.l2()).stats().snapshot();
    }
    return cache != null && index == 0 ? cache.stats().snapshot() : null;
  }

  private static double hitRatio(CacheStats.Snapshot now, CacheStats.Snapshot before) {
    if (now == null || before == null) {
      return Double.NaN;
    }
    long hits = now.hitCount() - before.hitCount();
    long requests = now.requestCount() - before.requestCount();
    return requests <= 0 ? Double.NaN : (double) hits / requests;
  }

  private static long evictions(CacheStats.Snapshot now, CacheStats.Snapshot before) {
    return now == null || before == null
        ? 0
        : Math.max(0, now.evictedBlockCount() - before.evictedBlockCount());
  }

  /** The samples in the ring, oldest first. */
  public List<Sample> samples() {
    synchronized (ring) {
      return new ArrayList<>(ring);
    }
  }

  /** The ring as JSON: {@code {"samples":[{"timeMillis":...,...},...]}}, NaN as null. */
  public String samplesJson() {
    StringBuilder text = new StringBuilder();
    JsonWriter json = new JsonWriter(text);
    json.beginObject().name("samples").beginArray();
    for (Sample sample : samples()) {
      json.beginObject()
          .name("timeMillis")
          .value(sample.timeMillis())
          .name("getsPerSecond")
          .value(sample.getsPerSecond())
          .name("writesPerSecond")
          .value(sample.writesPerSecond())
          .name("scanRowsPerSecond")
          .value(sample.scanRowsPerSecond())
          .name("getP99Micros")
          .value(sample.getP99Micros())
          .name("writeP99Micros")
          .value(sample.writeP99Micros());
      ratio(json, "l1HitRatio", sample.l1HitRatio());
      ratio(json, "l2HitRatio", sample.l2HitRatio());
      json.name("l1Evictions")
          .value(sample.l1Evictions())
          .name("l2Evictions")
          .value(sample.l2Evictions())
          .name("heapUsedBytes")
          .value(sample.heapUsedBytes())
          .name("offHeapBytes")
          .value(sample.offHeapBytes())
          .name("gcPauseMillis")
          .value(sample.gcPauseMillis())
          .endObject();
    }
    json.endArray().endObject();
    return text.toString();
  }

  private static void ratio(JsonWriter json, String name, double value) {
    json.name(name);
    if (Double.isNaN(value)) {
      json.nullValue();
    } else {
      json.value(value);
    }
  }

  @Override
  public void close() {
    if (executor != null) {
      executor.shutdownNow();
    }
  }
}
