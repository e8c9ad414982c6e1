package dev.cellar.store.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class ChunkTest {

  @Test
  void allocationsBumpThePointerUntilFull() {
    try (ChunkPool pool = new ChunkPool(1024, 0, 0)) {
      Chunk chunk = pool.take();
      assertEquals(0, chunk.allocate(1000));
      assertEquals(1000, chunk.allocate(24));
      assertEquals(-1, chunk.allocate(1));
      assertEquals(1024, chunk.used());
      chunk.release();
    }
  }

  @Test
  void concurrentAllocationsNeverOverlap(TestSeed seed) throws Exception {
    int size = 1 << 20;
    try (ChunkPool pool = new ChunkPool(size, 1, 0)) {
      Chunk chunk = pool.take();
      List<CompletableFuture<List<int[]>>> writers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Random random = new Random(seed.value() + t);
        writers.add(
            CompletableFuture.supplyAsync(
                () -> {
                  List<int[]> ranges = new ArrayList<>();
                  for (; ; ) {
                    int length = 1 + random.nextInt(300);
                    int offset = chunk.allocate(length);
                    if (offset < 0) {
                      return ranges;
                    }
                    ranges.add(new int[] {offset, length});
                  }
                }));
      }
      BitSet taken = new BitSet(size);
      long total = 0;
      for (CompletableFuture<List<int[]>> writer : writers) {
        for (int[] range : writer.get()) {
          assertTrue(taken.get(range[0], range[0] + range[1]).isEmpty(), "overlap at " + range[0]);
          taken.set(range[0], range[0] + range[1]);
          total += range[1];
        }
      }
      assertEquals(chunk.used(), total);
      assertTrue(size - total < 300, "the chunk was filled up to the last request");
      chunk.release();
    }
  }
}
