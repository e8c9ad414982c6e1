package dev.cellar.cli;

import com.sun.management.ThreadMXBean;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.memory.BufAllocatorStats;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cellar demo}: loads PerformanceEvaluation-shaped rows into pooled off-heap blocks and runs
 * random point lookups that read cells in place, then reports throughput, latency percentiles,
 * heap bytes allocated per lookup, GC activity and the allocator's counters.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Load rows into pooled off-heap blocks and run random reads against them, in place.",
      "Reports ops/s, latency percentiles, heap bytes per lookup, GC time and allocator stats."
    })
final class DemoCommand implements Runnable {

  @Option(names = "--rows", defaultValue = "100000", description = "rows to load (default ${DEFAULT-VALUE})")
  int rows;

  @Option(names = "--valueSize", defaultValue = "1000", description = "value bytes (default ${DEFAULT-VALUE})")
  int valueSize;

  @Option(names = "--lookups", defaultValue = "2000000", description = "random reads in total (default ${DEFAULT-VALUE})")
  long lookups;

  @Option(names = "--threads", defaultValue = "2", description = "reader threads (default ${DEFAULT-VALUE})")
  int threads;

  @Option(names = "--seed", description = "random seed (default: time based, printed)")
  Long seed;

  @Override
  public void run() {
    if (rows <= 0 || valueSize < 0 || lookups <= 0 || threads <= 0) {
      throw new IllegalArgumentException("--rows, --lookups and --threads must be > 0 and"
          + " --valueSize >= 0");
    }
    long runSeed = seed != null ? seed : System.nanoTime();
    PrintStream out = System.out;
    out.printf("Cellar demo: %,d rows of %d-byte values, %,d random reads on %d threads, seed %d%n",
        rows, valueSize, lookups, threads, runSeed);
    try (BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
      long loadStart = System.nanoTime();
      try (BlockLookupDemo data = BlockLookupDemo.load(allocator, rows, valueSize, runSeed)) {
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        out.printf("loaded %,d blocks in %.2f s%n", data.blockCount(), loadSeconds);
        printAllocator(out, allocator.stats());
        readPhase(out, data, runSeed);
      }
      BufAllocatorStats after = allocator.stats();
      out.printf("after release: %d pooled buffers in use, %d free%n", after.usedBufferCount(),
          after.freeBufferCount());
    }
  }

  private void readPhase(PrintStream out, BlockLookupDemo data, long runSeed) {
    ThreadMXBean threadBean = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    Histogram latencies = new Histogram(3_600_000_000_000L, 3);
    AtomicLong allocatedBytes = new AtomicLong();
    AtomicLong misses = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long[] gcBefore = gcTotals();
    List<Thread> workers = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      long share = lookups / threads + (t < lookups % threads ? 1 : 0);
      Random random = new Random(runSeed * 31 + t);
      Thread worker = new Thread(() -> {
        try {
          Histogram mine = new Histogram(3_600_000_000_000L, 3);
          ReusableRowKey key = new ReusableRowKey();
          KeyValueCell cursor = new KeyValueCell();
          long before = threadBean.getCurrentThreadAllocatedBytes();
          long missed = 0;
          for (long i = 0; i < share; i++) {
            long row = random.nextInt(data.rows());
            long t0 = System.nanoTime();
            int valueLength = data.lookup(key.forRow(row), cursor);
            mine.recordValue(System.nanoTime() - t0);
            if (valueLength != valueSize) {
              missed++;
            }
          }
          allocatedBytes.addAndGet(threadBean.getCurrentThreadAllocatedBytes() - before);
          misses.addAndGet(missed);
          synchronized (latencies) {
            latencies.add(mine);
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "cellar-demo-reader-" + t);
      workers.add(worker);
      worker.start();
    }
    for (Thread worker : workers) {
      try {
        worker.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for readers", e);
      }
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a reader failed", failure.get());
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long[] gcAfter = gcTotals();
    out.printf("randomRead: %,.0f ops/s over %.2f s, %d misses%n", lookups / seconds, seconds,
        misses.get());
    out.printf("latency (us): p50 %.2f  p99 %.2f  p99.9 %.2f  p99.99 %.2f  max %.2f%n",
        latencies.getValueAtPercentile(50) / 1e3, latencies.getValueAtPercentile(99) / 1e3,
        latencies.getValueAtPercentile(99.9) / 1e3, latencies.getValueAtPercentile(99.99) / 1e3,
        latencies.getMaxValue() / 1e3);
    out.printf("heap allocated per read: %.1f bytes; GC during reads: %d collections, %d ms%n",
        (double) allocatedBytes.get() / lookups, gcAfter[0] - gcBefore[0], gcAfter[1] - gcBefore[1]);
    if (misses.get() != 0) {
      throw new IllegalStateException(misses.get() + " lookups did not find their row");
    }
  }

  private static void printAllocator(PrintStream out, BufAllocatorStats stats) {
    out.printf("allocator: %,d pooled buffers of %,d bytes in use (of %,d), pool %,d bytes, heap %,d"
            + " bytes, heap allocation ratio %.3f%n", stats.usedBufferCount(), stats.bufferSize(),
        stats.maxBufferCount(), stats.poolAllocationBytes(), stats.heapAllocationBytes(),
        stats.heapAllocationRatio());
  }

  /** Total collections and collection milliseconds over every collector so far. */
  private static long[] gcTotals() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, bean.getCollectionCount());
      millis += Math.max(0, bean.getCollectionTime());
    }
    return new long[] {count, millis};
  }

  /**
   * A "first on row" search key whose 26 row digits are rewritten in place for each lookup, so
   * building a key allocates nothing.
   */
  private static final class ReusableRowKey {
    private final byte[] bytes;
    private final KeyValueCell cell = new KeyValueCell();
    private final int rowOffset;

    ReusableRowKey() {
      KeyValue template = KeyValue.firstOnRow(BlockLookupDemo.rowKey(0));
      bytes = template.segment().asSlice(template.offset(), template.length()).toArray(
          java.lang.foreign.ValueLayout.JAVA_BYTE);
      rowOffset = (int) (template.rowOffset() - template.offset());
      cell.reset(MemorySegment.ofArray(bytes), 0, bytes.length, false, 0);
    }

    KeyValueCell forRow(long row) {
      long rest = row;
      for (int i = rowOffset + 25; i >= rowOffset; i--) {
        bytes[i] = (byte) ('0' + rest % 10);
        rest /= 10;
      }
      return cell;
    }
  }
}
