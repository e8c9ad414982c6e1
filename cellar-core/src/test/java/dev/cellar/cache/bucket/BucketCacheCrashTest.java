package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.Cacheable;
import dev.cellar.cache.TestBlock;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process filling a persistent bucket cache with SIGKILL at a random moment, then opens the
 * cache again: it must come back with the blocks of its last persisted index that still hold their
 * bytes, and serve no block with bytes other than its own. CI runs a few rounds; {@code
 * -Dcellar.crash.rounds=N} (through {@code -Dcellar.test.extraJvmArgs}) runs more.
 */
@ExtendWith(TestSeedExtension.class)
class BucketCacheCrashTest {

  static final int[] SIZES = {5120, 9216};
  static final long BUCKET = 4L * 9216;
  static final long BUCKETS = 256;

  @TempDir Path directory;

  static BucketCacheConfig config(Path data, Path index, long buckets) {
    BucketCacheConfig base =
        BucketCacheConfig.of("file:" + data, buckets * BUCKET)
            .withBucketSizes(SIZES)
            .withPersistentPath(index);
    return new BucketCacheConfig(
        base.ioEngine(),
        base.capacity(),
        base.bucketSizes(),
        base.writerThreads(),
        base.writerQueueLength(),
        base.acceptFactor(),
        base.minFactor(),
        base.extraFreeFactor(),
        base.singleFactor(),
        base.multiFactor(),
        base.memoryFactor(),
        base.persistentPath(),
        50,
        base.queueAdditionWaitMillis(),
        base.ioErrorsToleratedMillis(),
        base.doorkeeper());
  }

  static BlockCacheKey key(int i) {
    return new BlockCacheKey("crash-file", i * 65_536L);
  }

  static int size(int i) {
    return 500 + Math.floorMod(i * 7919, 8500);
  }

  @Test
  void aKilledWriterLeavesACacheThatServesOnlyCorrectBytes(TestSeed seed) throws Exception {
    int rounds = Integer.getInteger("cellar.crash.rounds", 2);
    SplittableRandom random = new SplittableRandom(seed.value());
    for (int round = 0; round < rounds; round++) {
      Path data = directory.resolve("round-" + round + ".data");
      Path index = directory.resolve("round-" + round + ".index");
      int cachedBeforeKill = runAndKill(data, index, random.nextLong(), 300 + random.nextInt(2000));
      int served = verifyRestart(data, index, cachedBeforeKill + 200, "round " + round);
      assertTrue(
          served > 0,
          "round "
              + round
              + ": nothing came back warm after "
              + cachedBeforeKill
              + " blocks cached");
    }
  }

  /**
   * Starts the writer, kills it with SIGKILL after it cached {@code atLeast} blocks; returns the
   * count seen.
   */
  private static int runAndKill(Path data, Path index, long seed, int atLeast) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx128m");
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(CacheWriterProcess.class.getName());
    command.add(data.toString());
    command.add(index.toString());
    command.add(Long.toString(BUCKETS));
    command.add(Long.toString(seed));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    int cached = -1;
    List<String> output = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        output.add(line);
        if (line.startsWith("cached ")) {
          cached = Integer.parseInt(line.substring(7));
          if (cached >= atLeast) {
            break;
          }
        }
      }
      process.destroyForcibly();
      assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the writer did not die");
    }
    assertTrue(cached >= atLeast, "the writer stopped early: " + output);
    assertEquals(137, process.exitValue(), "the writer was not killed by SIGKILL");
    return cached;
  }

  private static int verifyRestart(Path data, Path index, int upTo, String context)
      throws Exception {
    BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 16384, 64, 0));
    BucketCache cache = BucketCache.create(config(data, index, BUCKETS), allocator);
    int served = 0;
    try {
      for (int i = 0; i < upTo; i++) {
        Cacheable block = cache.getBlockRetained(key(i), true, false, true);
        if (block != null) {
          int mismatch = TestBlock.firstMismatch(block, key(i), size(i));
          block.release();
          assertEquals(-1, mismatch, context + ": block " + i + " served with a wrong byte");
          served++;
        }
      }
    } finally {
      cache.shutdown();
    }
    assertEquals(0, allocator.stats().usedBufferCount(), context + ": pooled buffers in use");
    allocator.close();
    return served;
  }
}
