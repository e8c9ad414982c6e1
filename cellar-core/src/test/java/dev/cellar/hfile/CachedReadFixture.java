package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.cellar.cache.BlockCache;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.BufAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A file of numbered rows read through a block cache, for the tests of reading through caches:
 * writing it, opening it behind a {@link CachingBlockLoader}, scanning it with every value
 * checked, and seeking it from several threads at once.
 */
final class CachedReadFixture {

  private CachedReadFixture() {}

  static byte[] row(int i) {
    return String.format("row-%08d", i).getBytes();
  }

  static byte[] value(int i) {
    return ("value-" + i + "-" + "x".repeat(i % 90)).getBytes();
  }

  /** Writes rows 0 to {@code cells} - 1, one cell each, to {@code path}. */
  static Path write(Path path, HFileContext context, int cells) throws IOException {
    try (HFileWriter writer = HFileWriter.create(path, context)) {
      for (int i = 0; i < cells; i++) {
        writer.append(KeyValue.create(row(i), "f".getBytes(), "q".getBytes(), 1, CellType.PUT,
            value(i)));
      }
    }
    return path;
  }

  static HFileReader open(Path path, BufAllocator allocator, BlockCache cache) throws IOException {
    return HFileReader.open(path, allocator,
        direct -> new CachingBlockLoader(cache, direct, path.toString(), false));
  }

  /** Scans the whole file, checking every value; returns the number of cells. */
  static int scan(HFileReader reader, boolean cacheBlocks) throws IOException {
    int cells = 0;
    try (HFileScanner scanner = reader.scanner(cacheBlocks)) {
      for (boolean more = scanner.seekTo(); more; more = scanner.next()) {
        assertArrayEquals(value(cells), scanner.current().valueArray());
        cells++;
      }
    }
    return cells;
  }

  /**
   * Seeks random rows from {@code threads} threads at once, {@code seeks} each, checking every row
   * and value found; throws the first failure, naming the seed.
   */
  static void concurrentSeeks(HFileReader reader, int cells, int threads, int seeks, long seed)
      throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Random random = new Random(seed + t);
      started.add(Thread.ofPlatform().name("cached-reader-" + t).start(() -> {
        try (HFileScanner scanner = reader.scanner(true)) {
          for (int i = 0; i < seeks; i++) {
            int target = random.nextInt(cells);
            Cell key = KeyValue.firstOnRow(row(target));
            int result = scanner.seekTo(key);
            if (result == HFileScanner.BEFORE_FILE) {
              scanner.seekTo();
            } else if (result == HFileScanner.BEFORE_KEY) {
              scanner.next();
            }
            assertArrayEquals(row(target), scanner.current().rowArray(), "seed=" + seed);
            assertArrayEquals(value(target), scanner.current().valueArray(), "seed=" + seed);
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }));
    }
    for (Thread thread : started) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("seed " + seed, failure.get());
    }
  }
}
