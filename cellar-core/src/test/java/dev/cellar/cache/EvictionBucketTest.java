package dev.cellar.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The victims of an {@link EvictionBucket} against an oracle that sorts every entry by recency:
 * whatever order entries arrive in, freeing up to the bucket's limit evicts the globally least
 * recently read entries, oldest first, until the bytes asked for are covered. Ticks are distinct (a
 * random part and the entry's number), so the oldest entries are one set.
 */
@ExtendWith(TestSeedExtension.class)
class EvictionBucketTest {

  private record Candidate(long lastAccess, long evictionSize) implements EvictionCandidate {}

  @Test
  void freesTheOldestEntriesInOrderWhateverTheirArrivalOrder(TestSeed seed) {
    Random random = new Random(seed.value());
    for (int round = 0; round < 300; round++) {
      String context = "round=" + round;
      int entries = 1 + random.nextInt(400);
      List<Candidate> all = new ArrayList<>();
      long total = 0;
      for (int i = 0; i < entries; i++) {
        Candidate candidate =
            new Candidate(random.nextLong(1_000_000) * 1000 + i, 1 + random.nextInt(70_000));
        all.add(candidate);
        total += candidate.evictionSize();
      }
      long limit = 1 + random.nextLong(Math.max(1, total / 2));
      long target = random.nextLong(total + 1);
      EvictionBucket<Candidate> bucket = new EvictionBucket<>(target, limit);
      all.forEach(bucket::add);
      assertEquals(total, bucket.totalSize(), context);
      assertEquals(total - target, bucket.overflow(), context);

      long bytes = 1 + random.nextLong(limit);
      List<Candidate> evicted = new ArrayList<>();
      long freed =
          bucket.free(
              bytes,
              candidate -> {
                evicted.add(candidate);
                return candidate.evictionSize();
              });

      List<Candidate> oldestFirst = new ArrayList<>(all);
      oldestFirst.sort(Comparator.comparingLong(Candidate::lastAccess));
      long expectedFreed = 0;
      int victims = 0;
      while (expectedFreed < bytes) {
        expectedFreed += oldestFirst.get(victims++).evictionSize();
      }
      assertEquals(expectedFreed, freed, context);
      assertEquals(victims, evicted.size(), context);
      for (int i = 0; i < victims; i++) {
        assertEquals(
            oldestFirst.get(i).lastAccess(),
            evicted.get(i).lastAccess(),
            context + ": victim " + i);
      }

      List<Candidate> again = new ArrayList<>();
      bucket.free(
          bytes,
          candidate -> {
            again.add(candidate);
            return candidate.evictionSize();
          });
      assertEquals(evicted, again, context + ": a second free walks the same candidates");
    }
  }

  @Test
  void aBucketThatFreedTakesNoMoreEntries() {
    EvictionBucket<Candidate> bucket = new EvictionBucket<>(0, 10);
    bucket.add(new Candidate(1, 5));
    bucket.free(5, Candidate::evictionSize);
    assertThrows(IllegalStateException.class, () -> bucket.add(new Candidate(0, 5)));
  }

  @Test
  void freeingFromAnEmptyBucketFreesNothing() {
    EvictionBucket<Candidate> bucket = new EvictionBucket<>(0, 10);
    assertEquals(0, bucket.free(10, Candidate::evictionSize));
    assertEquals(0, bucket.totalSize());
  }
}
