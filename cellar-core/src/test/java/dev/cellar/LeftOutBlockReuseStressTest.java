package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.tiered.TwoTierBlockCache;
import dev.cellar.cell.Cell;
import dev.cellar.schema.Durability;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads of blocks a cache leaves out (it holds an eighth to a quarter of the data, so its
 * doorkeeper turns most misses away) reuse their slot's buffer and block object from read to read:
 * recycled heap arrays under the L1, pooled off-heap buffers under the L2, where the L1 also keeps
 * the blocks it takes in reusable arrays (its hits retain them by generation). Readers on several
 * threads keep some of their results open while they read on, and check every value both when read
 * and again before closing: a block object or buffer reset for another read while a result still
 * pinned it would show another row's bytes. Runs {@code cellar.stress.seconds} seconds (2 by
 * default); the seed is printed on failure.
 */
@ExtendWith(TestSeedExtension.class)
class LeftOutBlockReuseStressTest {

  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.US_ASCII);
  private static final int ROWS = 24_000;
  private static final int READERS = 3;
  private static final int KEPT_OPEN = 6;

  @TempDir Path directory;

  private static byte[] row(int i) {
    return String.format("row-%06d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** 1000 bytes that name their row all through. */
  private static byte[] value(int i) {
    ByteBuffer value = ByteBuffer.allocate(1000);
    while (value.remaining() >= Integer.BYTES) {
      value.putInt(i * 31 + value.position());
    }
    return value.array();
  }

  @ParameterizedTest
  @ValueSource(strings = {"L1", "L2"})
  void resultsKeepTheirRowsWhileLeftOutBlocksAreReadAgainAndAgain(String tier, TestSeed seed)
      throws Exception {
    long seconds = Long.getLong("cellar.stress.seconds", 2);
    CellarConfig config = CellarConfig.defaults().with("hfile.block.cache.memory.size", "3m");
    if (tier.equals("L2")) {
      config =
          config
              .with("hbase.bucketcache.ioengine", "offheap")
              .with("hbase.bucketcache.size", "6")
              .with("hbase.bucketcache.bucket.sizes", "20480,66560");
    }
    try (Cellar cellar = Cellar.open(directory, config)) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "16384"))));
      Table table = cellar.table("t");
      for (int i = 0; i < ROWS; i++) {
        table.put(
            new Put(row(i))
                .addColumn(FAMILY, QUALIFIER, value(i))
                .setDurability(Durability.SKIP_WAL));
      }
      cellar.admin().flush("t");
      long leftOutBefore = leftOut(cellar.blockCache());
      long deadline = System.nanoTime() + seconds * 1_000_000_000L;
      ExecutorService threads = Executors.newFixedThreadPool(READERS);
      try {
        List<Future<Long>> readers = new ArrayList<>();
        for (int t = 0; t < READERS; t++) {
          long threadSeed = seed.value() + t;
          readers.add(threads.submit(() -> read(table, threadSeed, deadline)));
        }
        long reads = 0;
        for (Future<Long> reader : readers) {
          reads += reader.get();
        }
        long leftOut = leftOut(cellar.blockCache()) - leftOutBefore;
        assertTrue(reads > 1000, "only " + reads + " reads");
        assertTrue(
            leftOut > reads / 10, leftOut + " blocks left out of the cache in " + reads + " reads");
      } finally {
        threads.shutdownNow();
      }
    }
  }

  /** Blocks the cache's tiers left out so far. */
  private static long leftOut(BlockCache cache) {
    if (cache instanceof TwoTierBlockCache tiers) {
      return leftOut(tiers.l1()) + leftOut(tiers.l2());
    }
    return cache.stats().snapshot().leftOutCount();
  }

  /** Random gets, results kept open a while and checked again; also through a row reader. */
  private static long read(Table table, long seed, long deadline) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    ArrayDeque<Result> open = new ArrayDeque<>();
    ArrayDeque<Integer> openRows = new ArrayDeque<>();
    long reads = 0;
    try (RowReader reader = table.rowReader()) {
      Get reused = new Get(row(0)).addColumn(FAMILY, QUALIFIER);
      while (System.nanoTime() < deadline) {
        int i = random.nextInt(ROWS);
        Result result = table.get(new Get(row(i)).addColumn(FAMILY, QUALIFIER));
        check(i, result.latestCell(FAMILY, QUALIFIER));
        open.addLast(result);
        openRows.addLast(i);
        if (open.size() > KEPT_OPEN) {
          try (Result oldest = open.removeFirst()) {
            check(openRows.removeFirst(), oldest.latestCell(FAMILY, QUALIFIER));
          }
        }
        int j = random.nextInt(ROWS);
        RowView view = reader.getView(reused.setRow(row(j)));
        assertEquals(1, view.size(), "row " + j);
        check(j, view.cells().get(0));
        reads += 2;
      }
    } finally {
      while (!open.isEmpty()) {
        try (Result result = open.removeFirst()) {
          check(openRows.removeFirst(), result.latestCell(FAMILY, QUALIFIER));
        }
      }
    }
    return reads;
  }

  private static void check(int i, Cell cell) {
    assertArrayEquals(row(i), cell.rowArray(), "row");
    assertArrayEquals(value(i), cell.valueArray(), "value of row " + i);
  }
}
