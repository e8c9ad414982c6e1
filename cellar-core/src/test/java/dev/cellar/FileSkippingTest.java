package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.cache.BlockCategory;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads skip files that cannot hold what they ask for: by the time range and by the bloom filter,
 * seen as data blocks never read; and skipping never changes the answer.
 */
class FileSkippingTest {

  private static final byte[] FAMILY = "f".getBytes();
  private static final byte[] QUALIFIER = "q".getBytes();

  @TempDir Path directory;

  private static long dataMisses(Cellar cellar) {
    return cellar.blockCache().stats().snapshot().misses(BlockCategory.DATA);
  }

  @Test
  void aTimeRangeAfterAFilesNewestCellSkipsTheFile() throws Exception {
    try (Cellar cellar =
        Cellar.open(
            directory, CellarConfig.defaults().with("hfile.block.cache.memory.size", "4m"))) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t",
                  ColumnFamilyDescriptor.of("f", Map.of("VERSIONS", "5", "BLOOMFILTER", "NONE"))));
      Table table = cellar.table("t");
      table.put(new Put("r".getBytes()).addColumn(FAMILY, QUALIFIER, 5, "old".getBytes()));
      table.delete(new Delete("r".getBytes()).addColumns(FAMILY, "other".getBytes(), 7));
      cellar.admin().flush("t");
      table.put(new Put("r".getBytes()).addColumn(FAMILY, QUALIFIER, 100, "new".getBytes()));
      cellar.admin().flush("t");

      long before = dataMisses(cellar);
      try (Result result =
          table.get(
              new Get("r".getBytes())
                  .readVersions(5)
                  .setTimeRange(50, Long.MAX_VALUE)
                  .setCacheBlocks(false))) {
        assertEquals(1, result.size());
        assertArrayEquals("new".getBytes(), result.value());
      }
      assertEquals(1, dataMisses(cellar) - before, "only the newer file was read");

      try (Result result =
          table.get(new Get("r".getBytes()).readVersions(5).setCacheBlocks(false))) {
        assertEquals(2, result.size());
      }
      assertEquals(3, dataMisses(cellar) - before, "both files are read without a time range");
    }
  }

  @Test
  void aRowBloomFilterSkipsFilesWithoutTheRow() throws Exception {
    try (Cellar cellar =
        Cellar.open(
            directory,
            CellarConfig.defaults()
                .with("hfile.block.cache.memory.size", "4m")
                .with("hbase.hstore.compaction.min", "10"))) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("f", Map.of("BLOOMFILTER", "ROW"))));
      Table table = cellar.table("t");
      for (int file = 0; file < 3; file++) {
        for (int i = 0; i < 50; i++) {
          String row = String.format("row-%02d-%d", i, file);
          table.put(new Put(row.getBytes()).addColumn(FAMILY, QUALIFIER, row.getBytes()));
        }
        cellar.admin().flush("t");
      }
      long before = dataMisses(cellar);
      try (Result result = table.get(new Get("row-07-1".getBytes()).setCacheBlocks(false))) {
        assertArrayEquals("row-07-1".getBytes(), result.value());
      }
      assertEquals(
          1,
          dataMisses(cellar) - before,
          "the two other files, whose row ranges cover the row, were skipped by their blooms");
    }
  }
}
