package dev.cellar.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The block map against a {@link HashMap} oracle (random puts, removes, lookups and iterations,
 * across table rebuilds), and concurrent readers that must always find the entries no writer
 * touches while writers churn the others.
 */
@ExtendWith(TestSeedExtension.class)
class BlockMapTest {

  private record Entry(long keyFileId, long keyOffset, int version) implements BlockMap.Keyed {}

  private record Key(long fileId, long offset) {}

  @Test
  void behavesAsAMapAcrossRebuilds(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    BlockMap<Entry> map = new BlockMap<>();
    Map<Key, Entry> oracle = new HashMap<>();
    for (int op = 0; op < 200_000; op++) {
      // few files, strided offsets: the shape of a cache's keys
      long fileId = 1 + random.nextInt(4);
      long offset = 65_569L * random.nextInt(3_000);
      Key key = new Key(fileId, offset);
      switch (random.nextInt(4)) {
        case 0, 1 -> {
          Entry entry = new Entry(fileId, offset, op);
          Entry present = map.putIfAbsent(entry);
          Entry expected = oracle.putIfAbsent(key, entry);
          assertSame(expected, present, "put " + key);
        }
        case 2 -> {
          Entry stored = oracle.get(key);
          Entry other = new Entry(fileId, offset, -1);
          assertEquals(false, map.remove(other), "an equal but other entry is not removed");
          if (stored != null) {
            assertTrue(map.remove(stored), "remove " + key);
            oracle.remove(key);
          }
        }
        default -> assertSame(oracle.get(key), map.get(fileId, offset), "get " + key);
      }
      if (op % 20_000 == 0) {
        assertEquals(oracle.size(), map.size());
        assertEquals(new HashSet<>(oracle.values()), new HashSet<>(map.values()));
      }
    }
    assertEquals(oracle.size(), map.size());
    for (Map.Entry<Key, Entry> entry : oracle.entrySet()) {
      assertSame(entry.getValue(), map.get(entry.getKey().fileId(), entry.getKey().offset()));
    }
  }

  @Test
  void emptiedAndRefilledKeepsFindingEverything() {
    BlockMap<Entry> map = new BlockMap<>();
    for (int round = 0; round < 20; round++) {
      List<Entry> entries = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        Entry entry = new Entry(7, 4096L * i + round, round);
        assertNull(map.putIfAbsent(entry));
        entries.add(entry);
      }
      for (Entry entry : entries) {
        assertSame(entry, map.get(entry.keyFileId(), entry.keyOffset()));
      }
      for (Entry entry : entries) {
        assertTrue(map.remove(entry));
      }
      assertEquals(0, map.size());
      assertEquals(List.of(), map.values());
    }
  }

  @Test
  void readersAlwaysFindTheEntriesNoWriterTouches(TestSeed seed) throws Exception {
    BlockMap<Entry> map = new BlockMap<>();
    List<Entry> stable = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      Entry entry = new Entry(1, 8192L * i, 0);
      map.putIfAbsent(entry);
      stable.add(entry);
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      SplittableRandom random = new SplittableRandom(seed.value() + w);
      long fileId = 100 + w;
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    Set<Entry> mine = new HashSet<>();
                    List<Entry> order = new ArrayList<>();
                    while (!stop.get()) {
                      if (order.size() < 20_000 && random.nextBoolean()) {
                        Entry entry = new Entry(fileId, random.nextLong(1L << 40), 0);
                        if (map.putIfAbsent(entry) == null) {
                          mine.add(entry);
                          order.add(entry);
                        }
                      } else if (!order.isEmpty()) {
                        Entry entry = order.remove(order.size() - 1);
                        mine.remove(entry);
                        if (!map.remove(entry)) {
                          failure.compareAndSet(null, new AssertionError("lost " + entry));
                        }
                      }
                    }
                  }));
    }
    for (int r = 0; r < 2; r++) {
      SplittableRandom random = new SplittableRandom(seed.value() + 10 + r);
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; i < 2_000_000 && failure.get() == null; i++) {
                      Entry expected = stable.get(random.nextInt(stable.size()));
                      if (map.get(expected.keyFileId(), expected.keyOffset()) != expected) {
                        failure.compareAndSet(null, new AssertionError("missed " + expected));
                      }
                    }
                  }));
    }
    for (Thread reader : threads.subList(2, 4)) {
      reader.join();
    }
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a reader or writer failed", failure.get());
    }
    for (Entry entry : stable) {
      assertSame(entry, map.get(entry.keyFileId(), entry.keyOffset()));
    }
  }
}
