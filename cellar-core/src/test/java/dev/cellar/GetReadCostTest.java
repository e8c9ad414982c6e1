package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.CacheStats;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a Get reads: one bloom chunk, at most one leaf index block and one data block of the one
 * file holding its row, and nothing after its row. The blocks are 1 KiB with one 1000-byte cell
 * each (so the block index has a leaf level, and the row after a Get's row is always in the next
 * data block); counted as block cache lookups.
 */
class GetReadCostTest {

  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.US_ASCII);
  private static final int ROWS = 4000;
  private static final int GETS = 500;

  @TempDir Path directory;

  private static byte[] row(int i) {
    return String.format("%026d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(int i) {
    byte[] value = new byte[1000];
    Arrays.fill(value, (byte) ('A' + i % 26));
    return value;
  }

  @Test
  void aGetReadsOneBlockOfEachKindAndNothingPastItsRow() throws IOException {
    try (Cellar cellar =
        Cellar.open(
            directory, CellarConfig.defaults().with("hfile.block.cache.memory.size", "64m"))) {
      Table table = flushedTable(cellar);
      cellar.admin().majorCompact("t");
      for (int pass = 0; pass < 2; pass++) {
        CacheStats.Snapshot before = cellar.blockCache().stats().snapshot();
        for (int g = 0; g < GETS; g++) {
          int i = g * (ROWS / GETS);
          try (Result result = table.get(new Get(row(i)).addColumn(FAMILY, QUALIFIER))) {
            assertArrayEquals(value(i), result.getValue(FAMILY, QUALIFIER));
          }
        }
        CacheStats.Snapshot after = cellar.blockCache().stats().snapshot();
        if (pass == 1) {
          assertEquals(GETS, lookups(before, after, BlockCategory.DATA), "data blocks");
          assertEquals(GETS, lookups(before, after, BlockCategory.BLOOM), "bloom chunks");
          long index = lookups(before, after, BlockCategory.INDEX);
          assertTrue(
              index > GETS * 9 / 10 && index <= GETS,
              "at most one leaf index block per get (the index has a leaf level): " + index);
          assertEquals(0, after.missCount() - before.missCount(), "all hits when warm");
        }
      }
    }
  }

  /**
   * A file whose bloom never rejects the rows read (every Get finds its row) is asked by one Get in
   * 16 once a thread has seen it not reject for a while; Gets of rows it lacks, which the sampled
   * asks reject, bring every Get back to asking it, and every answer stays right.
   */
  @Test
  void aBloomThatNeverRejectsIsSkippedUntilGetsMissTheFile() throws IOException {
    try (Cellar cellar =
        Cellar.open(
            directory, CellarConfig.defaults().with("hfile.block.cache.memory.size", "64m"))) {
      Table table = flushedTable(cellar);
      try (RowReader reader = table.rowReader()) {
        Get get = new Get(row(0)).addColumn(FAMILY, QUALIFIER);
        for (int g = 0; g < 2 * ROWS; g++) {
          int i = g % ROWS;
          assertArrayEquals(
              value(i), reader.getView(get.setRow(row(i))).getValue(FAMILY, QUALIFIER));
        }
        CacheStats.Snapshot before = cellar.blockCache().stats().snapshot();
        for (int g = 0; g < 1600; g++) {
          int i = g % ROWS;
          assertArrayEquals(
              value(i), reader.getView(get.setRow(row(i))).getValue(FAMILY, QUALIFIER));
        }
        CacheStats.Snapshot after = cellar.blockCache().stats().snapshot();
        assertEquals(
            1600 / 16,
            lookups(before, after, BlockCategory.BLOOM),
            "one get in 16 asks a bloom that never rejects");

        // rows the file lacks, between its rows: the sampled asks reject them
        for (int g = 0; g < 17 * 1024; g++) {
          byte[] absent = Arrays.copyOf(row(g % ROWS), 27);
          absent[26] = 'x';
          assertTrue(reader.getView(get.setRow(absent)).isEmpty());
        }
        before = cellar.blockCache().stats().snapshot();
        for (int g = 0; g < 100; g++) {
          byte[] absent = Arrays.copyOf(row(g), 27);
          absent[26] = 'x';
          assertTrue(reader.getView(get.setRow(absent)).isEmpty());
        }
        after = cellar.blockCache().stats().snapshot();
        assertEquals(100, lookups(before, after, BlockCategory.BLOOM), "every get asks again");
        assertEquals(
            0,
            lookups(before, after, BlockCategory.DATA),
            "the bloom keeps the gets of absent rows out of the data blocks");
      }
    }
  }

  /** Table {@code t} of {@link #ROWS} rows in 1 KiB blocks, flushed into one file. */
  private static Table flushedTable(Cellar cellar) throws IOException {
    cellar
        .admin()
        .createTable(
            TableDescriptor.of("t", ColumnFamilyDescriptor.of("f", Map.of("BLOCKSIZE", "1024"))));
    Table table = cellar.table("t");
    for (int i = 0; i < ROWS; i++) {
      table.put(
          new Put(row(i))
              .addColumn(FAMILY, QUALIFIER, value(i))
              .setDurability(Durability.SKIP_WAL));
    }
    cellar.admin().flush("t");
    return table;
  }

  private static long lookups(
      CacheStats.Snapshot before, CacheStats.Snapshot after, BlockCategory category) {
    return after.hits(category)
        + after.misses(category)
        - before.hits(category)
        - before.misses(category);
  }
}
