package dev.cellar.cli.experiments.showdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeploySizingTest {

  private static final long MIB = 1L << 20;

  @Test
  void atTheDefaultAllotmentEveryFigureIsTheSeedsShare() {
    for (Deploy deploy : Deploy.values()) {
      DeploySizing sizing = new DeploySizing(deploy, 1280 * MIB);
      assertEquals(List.of(), sizing.floors(), deploy.title());
      assertTrue(sizing.heapHow().startsWith("the seed's share"), sizing.heapHow());
    }
  }

  @Test
  void aSmallAllotmentsHeapIsItsCachesPlusTheFloorAndSaysSo() {
    DeploySizing lru = new DeploySizing(Deploy.LRU, 64 * MIB);
    assertEquals(lru.l1() + Deploy.MIN_HEAP, lru.heap(), "heap = L1 + 128 MiB");
    assertEquals(Deploy.MIN_HEAP, lru.besideCaches());
    assertTrue(lru.heap() > 64 * MIB, "a heap larger than the allotment, explained");
    assertEquals(
        "the L1 plus 128 MiB beside it: the seed's share (97.5% of the allotment,"
            + " 62.4 MiB) would leave less than that",
        lru.heapHow());
    assertEquals(
        List.of(
            "LruBlockCache: heap raised to 165.6 MiB (its caches plus 128 MiB)"
                + " from the seed's share of 62.4 MiB"),
        lru.floors());

    DeploySizing heapEngine = new DeploySizing(Deploy.BUCKET_HEAP, 64 * MIB);
    assertEquals(
        heapEngine.l1() + heapEngine.l2() + heapEngine.besideCaches(),
        heapEngine.heap(),
        "the heap engine's L2 is on the heap too");
    assertTrue(heapEngine.heapHow().startsWith("the L1 and L2 plus"), heapEngine.heapHow());
  }

  @Test
  void theTableHasARowPerDeployThatRan() {
    var table =
        DeploySizing.table(
            List.of(Deploy.LRU, Deploy.BUCKET_OFFHEAP),
            dev.cellar.cli.experiments.Allotment.of("64m", 1, 16 * MIB, "the least"));
    assertEquals(
        List.of("LruBlockCache", "BucketCache offheap"),
        table.rows().stream().map(row -> row.getFirst()).toList());
    assertTrue(table.text().contains("64 MiB (--memory 64 MiB)"), table.text());
  }
}
