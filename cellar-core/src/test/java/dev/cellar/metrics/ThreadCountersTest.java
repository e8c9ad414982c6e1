package dev.cellar.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Counters each thread adds to in a row of its own: exact sums, rows of ended threads folded. */
@ExtendWith(TestSeedExtension.class)
class ThreadCountersTest {

  @Test
  void sumsAreExactOnceThreadsStopAdding(TestSeed seed) throws Exception {
    ThreadCounters counters = new ThreadCounters(3);
    long[] expected = new long[3];
    List<Thread> threads = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    for (int t = 0; t < 6; t++) {
      SplittableRandom random = new SplittableRandom(seed.value() + t);
      long[] mine = new long[3];
      int[] counter = new int[200_000];
      long[] amount = new long[counter.length];
      for (int i = 0; i < counter.length; i++) {
        counter[i] = random.nextInt(3);
        amount[i] = random.nextInt(5);
        mine[counter[i]] += amount[i];
      }
      for (int c = 0; c < 3; c++) {
        expected[c] += mine[c];
      }
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                    } catch (InterruptedException e) {
                      throw new AssertionError(e);
                    }
                    for (int i = 0; i < counter.length; i++) {
                      counters.add(counter[i], amount[i]);
                    }
                  }));
    }
    start.countDown();
    long previous = 0;
    while (threads.stream().anyMatch(Thread::isAlive)) {
      long now = counters.sum(0);
      assertTrue(now >= previous, "a sum taken while threads add never goes back");
      previous = now;
    }
    for (Thread thread : threads) {
      thread.join();
    }
    for (int c = 0; c < 3; c++) {
      assertEquals(expected[c], counters.sum(c), "counter " + c);
    }
  }

  @Test
  void rowsOfEndedThreadsAreFoldedAndTheirCountsKept() throws Exception {
    ThreadCounters counters = new ThreadCounters(1);
    for (int t = 0; t < 50; t++) {
      Thread thread = Thread.ofPlatform().start(() -> counters.add(0, 2));
      thread.join();
    }
    Thread virtual = Thread.ofVirtual().start(() -> counters.increment(0));
    virtual.join();
    assertEquals(101, counters.sum(0));
    assertEquals(0, counters.liveRows(), "no row left for threads that ended");
    counters.increment(0);
    assertEquals(1, counters.liveRows());
    assertEquals(102, counters.sum(0));
  }

  @Test
  void aCounterOutsideTheSetIsRefused() {
    ThreadCounters counters = new ThreadCounters(2);
    assertThrows(IndexOutOfBoundsException.class, () -> counters.increment(2));
    assertThrows(IndexOutOfBoundsException.class, () -> counters.sum(-1));
    assertThrows(IllegalArgumentException.class, () -> new ThreadCounters(0));
  }
}
