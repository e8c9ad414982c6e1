package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.schema.Durability;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point reads racing writes, flushes and compactions: a writer overwrites rows with increasing
 * versions (acknowledged versions noted per row), flushes often and compacts, while readers get
 * random rows through a {@link RowReader} and through {@link Table#get}. Every read must find its
 * row, with a version at least the one acknowledged before the read began: a read that misses a
 * file swapped by a compaction, or a snapshot moved to a file, returns an older version or none.
 * Runs {@code cellar.stress.seconds} seconds (2 by default); the seed is printed on failure.
 */
@ExtendWith(TestSeedExtension.class)
class PointGetStressTest {

  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.US_ASCII);
  private static final int ROWS = 200;
  private static final int READERS = 2;

  @TempDir Path directory;

  private static byte[] row(int i) {
    return String.format("row-%05d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(long version) {
    return ByteBuffer.allocate(200).putLong(version).array();
  }

  @Test
  void readsNeverMissRowsWhileFilesAreFlushedAndCompacted(TestSeed seed) throws Exception {
    long seconds = Long.getLong("cellar.stress.seconds", 2);
    CellarConfig config =
        CellarConfig.defaults()
            .with("hbase.hregion.memstore.flush.size", "16384")
            .with("hbase.hstore.compaction.min", "2")
            .with("hfile.block.cache.memory.size", "8m");
    try (Cellar cellar = Cellar.open(directory, config)) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of("t", ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "1024"))));
      Table table = cellar.table("t");
      AtomicLongArray acknowledged = new AtomicLongArray(ROWS);
      for (int i = 0; i < ROWS; i++) {
        table.put(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value(1)));
        acknowledged.set(i, 1);
      }
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService threads = Executors.newFixedThreadPool(READERS + 1);
      List<Future<Long>> readers = new ArrayList<>();
      Future<?> writer =
          threads.submit(
              () -> {
                SplittableRandom random = new SplittableRandom(seed.value());
                long version = 1;
                while (!stop.get()) {
                  int i = random.nextInt(ROWS);
                  version++;
                  table.put(
                      new Put(row(i))
                          .addColumn(FAMILY, QUALIFIER, value(version))
                          .setDurability(Durability.SKIP_WAL));
                  acknowledged.accumulateAndGet(i, version, Math::max);
                  if (version % 500 == 0) {
                    cellar.admin().flush("t");
                  }
                  if (version % 3000 == 0) {
                    cellar.admin().majorCompact("t");
                  }
                }
                return null;
              });
      for (int r = 0; r < READERS; r++) {
        long readerSeed = seed.value() + 1 + r;
        boolean useReader = r % 2 == 0;
        readers.add(
            threads.submit(
                () -> {
                  SplittableRandom random = new SplittableRandom(readerSeed);
                  Get get = new Get(row(0)).addColumn(FAMILY, QUALIFIER);
                  long reads = 0;
                  try (RowReader reader = table.rowReader()) {
                    while (!stop.get()) {
                      int i = random.nextInt(ROWS);
                      long atLeast = acknowledged.get(i);
                      long found;
                      if (useReader) {
                        byte[] bytes =
                            reader.getView(get.setRow(row(i))).getValue(FAMILY, QUALIFIER);
                        found = bytes == null ? -1 : ByteBuffer.wrap(bytes).getLong();
                      } else {
                        try (Result result =
                            table.get(new Get(row(i)).addColumn(FAMILY, QUALIFIER))) {
                          byte[] bytes = result.getValue(FAMILY, QUALIFIER);
                          found = bytes == null ? -1 : ByteBuffer.wrap(bytes).getLong();
                        }
                      }
                      assertTrue(
                          found >= atLeast,
                          "row "
                              + i
                              + " read version "
                              + found
                              + " after version "
                              + atLeast
                              + " was acknowledged");
                      reads++;
                    }
                  }
                  return reads;
                }));
      }
      Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
      stop.set(true);
      writer.get();
      for (Future<Long> reader : readers) {
        assertTrue(reader.get() > 0, "a reader read nothing");
      }
      threads.shutdown();
      assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
      for (int i = 0; i < ROWS; i++) {
        try (Result result = table.get(new Get(row(i)))) {
          assertEquals(
              acknowledged.get(i), ByteBuffer.wrap(result.getValue(FAMILY, QUALIFIER)).getLong());
        }
      }
    }
  }
}
