package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** The read point only moves past writes that completed, in order. */
class MvccTest {

  @Test
  void theReadPointWaitsForTheOldestPendingWrite() {
    Mvcc mvcc = new Mvcc(10);
    long first = mvcc.begin();
    long second = mvcc.begin();
    assertEquals(10, mvcc.readPoint());
    mvcc.complete(second);
    assertEquals(10, mvcc.readPoint(), "an earlier write is still applying");
    mvcc.complete(first);
    assertEquals(12, mvcc.readPoint());
    assertThrows(IllegalStateException.class, () -> mvcc.complete(first));
  }

  @Test
  void manyWritesInFlightCompleteInAnyOrder() {
    Mvcc mvcc = new Mvcc(0);
    List<Long> numbers = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      numbers.add(mvcc.begin());
    }
    Collections.shuffle(numbers, new Random(3));
    TreeSet<Long> pending = new TreeSet<>(numbers);
    for (long number : numbers) {
      mvcc.complete(number);
      pending.remove(number);
      long lowestPending = pending.isEmpty() ? 1001 : pending.first();
      assertEquals(lowestPending - 1, mvcc.readPoint());
    }
    assertEquals(1000, mvcc.readPoint());
    assertThrows(IllegalStateException.class, () -> mvcc.complete(1001));
  }

  @Test
  void awaitReturnsOnceEveryEarlierWriteCompleted() throws Exception {
    Mvcc mvcc = new Mvcc(0);
    long first = mvcc.begin();
    long second = mvcc.begin();
    Thread waiter = Thread.ofPlatform().start(() -> mvcc.completeAndWait(second));
    waiter.join(100);
    assertTrue(waiter.isAlive(), "the second write waits for the first to complete");
    assertEquals(0, mvcc.readPoint());
    mvcc.complete(first);
    waiter.join(10_000);
    assertFalse(waiter.isAlive());
    assertEquals(2, mvcc.readPoint());
    mvcc.await(2);
  }

  @Test
  void concurrentWritersNeverExposeAnIncompleteWrite() throws InterruptedException {
    Mvcc mvcc = new Mvcc(0);
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    boolean[] done = new boolean[200_001];
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; i < 50_000; i++) {
                      long number = mvcc.begin();
                      done[(int) number] = true;
                      mvcc.complete(number);
                      long readPoint = mvcc.readPoint();
                      for (long n = Math.max(1, readPoint - 3); n <= readPoint; n++) {
                        if (!done[(int) n]) {
                          failures.add("read point " + readPoint + " passed incomplete write " + n);
                        }
                      }
                    }
                  }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertTrue(failures.isEmpty(), failures.toString());
    assertEquals(200_000, mvcc.readPoint());
  }
}
