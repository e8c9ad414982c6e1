package dev.cellar.store.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.management.ThreadMXBean;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.config.Settings;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A rough measurement, printed and never asserted: adds per second of cells with 100-byte values
 * (16-byte rows in scrambled order, default 2 MiB chunks) from one and two threads, and the heap
 * bytes each add allocates ({@code ThreadMXBean.getThreadAllocatedBytes}). Each writer reuses one
 * source buffer, rewriting the row in place, so the source costs nothing and the figure is the
 * memstore's own: the cell view, the skip-list nodes, and the lock and counters.
 */
class MemStoreThroughputTest {

  private static final int ADDS = 300_000;
  private static final int VALUE_LENGTH = 100;
  private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** What one run measured. */
  private record Result(double addsPerSecond, double heapBytesPerAdd, MemStoreSize size) {}

  @Test
  void measureAddThroughputAndHeapPerAdd() throws Exception {
    MemStoreConfig config = MemStoreConfig.from(Settings.empty());
    try (ChunkPool pool = new ChunkPool(config)) {
      run(config, pool, 1, ADDS / 2);
      run(config, pool, 2, ADDS / 2);
      for (int threads = 1; threads <= 2; threads++) {
        Result result = run(config, pool, threads, ADDS);
        System.out.printf(
            "memstore add, %d-byte values, %d thread(s): %,.0f adds/s, %.1f heap"
                + " bytes per add allocated; accounted per cell: heap %d, off-heap %d bytes%n",
            VALUE_LENGTH,
            threads,
            result.addsPerSecond(),
            result.heapBytesPerAdd(),
            result.size().heapSize() / result.size().cellsCount(),
            result.size().offHeapSize() / result.size().cellsCount());
      }
      System.out.println("chunk pool after the runs: " + pool.stats());
    }
  }

  private static Result run(MemStoreConfig config, ChunkPool pool, int threads, int adds)
      throws Exception {
    AtomicLong allocated = new AtomicLong();
    CyclicBarrier start = new CyclicBarrier(threads + 1);
    CyclicBarrier end = new CyclicBarrier(threads + 1);
    try (MemStore memStore = new MemStore(config, pool)) {
      List<Thread> writers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int writer = t;
        Thread thread =
            new Thread(
                () -> {
                  try {
                    write(memStore, writer, adds / threads, start, allocated);
                    end.await();
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                },
                "memstore-throughput-" + t);
        writers.add(thread);
        thread.start();
      }
      start.await();
      long begin = System.nanoTime();
      end.await();
      long nanos = System.nanoTime() - begin;
      for (Thread writer : writers) {
        writer.join();
      }
      MemStoreSize size = memStore.size();
      assertEquals(adds, size.cellsCount());
      return new Result(adds * 1e9 / nanos, (double) allocated.get() / adds, size);
    }
  }

  /** Adds {@code count} cells through one reused source buffer, counting this thread's heap. */
  private static void write(
      MemStore memStore, int writer, int count, CyclicBarrier start, AtomicLong allocated)
      throws Exception {
    byte[] row = new byte[16];
    KeyValue template =
        KeyValue.create(
            row, Bytes.toBytes("f"), Bytes.toBytes("q"), 1, CellType.PUT, new byte[VALUE_LENGTH]);
    byte[] buffer = template.segment().toArray(KeyValueLayout.BYTE);
    MemorySegment source = MemorySegment.ofArray(buffer);
    KeyValueCell cell = new KeyValueCell(source, 0, buffer.length, false, 0);
    long rowOffset = cell.rowOffset();
    start.await();
    long before = THREADS.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < count; i++) {
      source.set(KeyValueLayout.LONG, rowOffset, writer);
      source.set(KeyValueLayout.LONG, rowOffset + Long.BYTES, i * 0x9E3779B97F4A7C15L);
      memStore.add(cell, i);
    }
    allocated.addAndGet(THREADS.getCurrentThreadAllocatedBytes() - before);
  }
}
