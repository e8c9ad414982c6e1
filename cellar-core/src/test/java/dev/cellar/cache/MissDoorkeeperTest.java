package dev.cellar.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The doorkeeper's memory of misses, its sizing and the churn level. */
@ExtendWith(TestSeedExtension.class)
class MissDoorkeeperTest {

  @Test
  void aBlockIsLetInAtItsSecondMissAndItsRecordIsThenSpent() {
    MissDoorkeeper doorkeeper = new MissDoorkeeper(1024);
    assertFalse(doorkeeper.secondMiss(7, 65_536), "a first miss is only recorded");
    assertTrue(doorkeeper.secondMiss(7, 65_536), "the second miss is let in");
    assertFalse(doorkeeper.secondMiss(7, 65_536), "letting it in spent the record");
    assertFalse(doorkeeper.secondMiss(8, 65_536), "another file's block at the same offset");
    assertFalse(doorkeeper.secondMiss(7, 131_072), "another block of the same file");
  }

  @Test
  void blocksMissedWithinTheWindowAreRemembered() {
    MissDoorkeeper doorkeeper = new MissDoorkeeper(1 << 16);
    for (long block = 0; block < 1000; block++) {
      assertFalse(doorkeeper.secondMiss(3, block << 16));
    }
    int remembered = 0;
    for (long block = 0; block < 1000; block++) {
      remembered += doorkeeper.secondMiss(3, block << 16) ? 1 : 0;
    }
    assertTrue(
        remembered >= 960,
        "a thousand misses in 65,536 slots: "
            + remembered
            + " remembered (only slot collisions, about eight pairs, may forget)");
  }

  /**
   * With one slot the doorkeeper remembers exactly the last miss it recorded: a randomized run
   * against that oracle (seed printed, and taken from {@code cellar.test.seed}).
   */
  @Test
  void oneSlotRemembersTheLastMissOnly(TestSeed seed) {
    Random random = new Random(seed.value());
    MissDoorkeeper doorkeeper = new MissDoorkeeper(1);
    assertEquals(1, doorkeeper.capacity());
    long remembered = -1;
    for (int i = 0; i < 100_000; i++) {
      long block = random.nextInt(4);
      boolean expected = block == remembered;
      assertEquals(expected, doorkeeper.secondMiss(1, block), "miss " + i);
      remembered = expected ? -1 : block;
    }
  }

  @Test
  void sizedToAboutOneSlotPerCachedBlockWithinBounds() {
    assertEquals(1024, MissDoorkeeper.forCache(64L << 20).capacity(), "64 MiB: 1,024 blocks");
    assertEquals(1024, new MissDoorkeeper(1000).capacity(), "rounded up to a power of two");
    assertEquals(MissDoorkeeper.MIN_SLOTS, MissDoorkeeper.forCache(1 << 20).capacity());
    assertEquals(MissDoorkeeper.MAX_SLOTS, MissDoorkeeper.forCache(1L << 50).capacity());
    assertThrows(IllegalArgumentException.class, () -> new MissDoorkeeper(0));
  }

  @Test
  void aCacheChurnsOncePastItsMinimumLessOneEvictionsSwing() {
    assertFalse(MissDoorkeeper.churning(0, 1000, 0.99, 0.95));
    assertFalse(MissDoorkeeper.churning(909, 1000, 0.99, 0.95), "room below 0.91");
    assertTrue(MissDoorkeeper.churning(911, 1000, 0.99, 0.95));
    assertTrue(MissDoorkeeper.churning(950, 1000, 0.99, 0.95), "just evicted down to min");
    assertFalse(MissDoorkeeper.churning(749, 1000, 0.95, 0.85), "a bucket cache's factors");
    assertTrue(MissDoorkeeper.churning(751, 1000, 0.95, 0.85));
  }
}
