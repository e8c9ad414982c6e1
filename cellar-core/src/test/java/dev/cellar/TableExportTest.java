package dev.cellar;

import static dev.cellar.BulkFixtures.bytes;
import static dev.cellar.BulkFixtures.dump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.hfile.FileInfo;
import dev.cellar.hfile.HFileReader;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TableExport}: the layout and file info HBase's bulk load expects, every kept version with
 * deletes applied, split keys, a point in time while writes go on, and what bulk loading the export
 * back gives (the same cells).
 */
@ExtendWith(TestSeedExtension.class)
class TableExportTest {

  @TempDir Path root;

  static TableDescriptor twoFamilies(String name) {
    return TableDescriptor.of(
        name,
        ColumnFamilyDescriptor.of(
            "a",
            Map.of(
                "VERSIONS",
                "3",
                "DATA_BLOCK_ENCODING",
                "FAST_DIFF",
                "COMPRESSION",
                "GZ",
                "BLOCKSIZE",
                "4096")),
        ColumnFamilyDescriptor.of("b", Map.of("BLOOMFILTER", "ROWCOL", "COMPRESSION", "NONE")));
  }

  /**
   * Random puts over a few versions in both families, column and family deletes, part flushed and
   * part in the MemStore.
   */
  static void fill(Table table, Admin admin, long seed, int rows) throws IOException {
    Random random = new Random(seed);
    for (int i = 0; i < rows; i++) {
      byte[] row = bytes(String.format("row-%05d", random.nextInt(rows)));
      String family = random.nextBoolean() ? "a" : "b";
      long ts = 1000 + random.nextInt(5);
      int kind = random.nextInt(10);
      if (kind == 0) {
        table.delete(new Delete(row).addFamily(bytes(family)));
      } else if (kind == 1) {
        table.delete(new Delete(row).addColumns(bytes(family), bytes("q" + random.nextInt(3)), ts));
      } else {
        table.put(
            new Put(row)
                .addColumn(bytes(family), bytes("q" + random.nextInt(3)), ts, bytes("v" + i)));
      }
      if (i == rows / 2) {
        admin.flush(table.name());
      }
    }
  }

  @Test
  void exportLoadsBackToTheSameCellsInHBasesLayout(TestSeed seed) throws IOException {
    Path out = root.resolve("export");
    List<String> expected;
    List<String> progress = new ArrayList<>();
    try (Cellar source = Cellar.open(root.resolve("source"), CellarConfig.defaults())) {
      source.admin().createTable(twoFamilies("t"));
      fill(source.table("t"), source.admin(), seed.value(), 3000);
      expected = dump(source.table("t"));
      List<TableExport.Family> exported =
          TableExport.export(source, "t", out, List.of(), progress::add);
      assertEquals(List.of("a", "b"), exported.stream().map(TableExport.Family::name).toList());
      assertEquals(
          expected.size(),
          exported.stream().mapToLong(TableExport.Family::cells).sum(),
          "cells exported");
    }
    assertTrue(progress.stream().anyMatch(line -> line.contains("family a")), progress::toString);
    try (Stream<Path> walk = Files.walk(out)) {
      for (Path path : walk.filter(Files::isRegularFile).toList()) {
        String name = path.getFileName().toString();
        assertTrue(name.matches("[0-9a-f]{32}"), name);
        assertEquals(out, path.getParent().getParent());
      }
    }
    try (BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
      for (Path file : files(out.resolve("a"))) {
        try (HFileReader reader = HFileReader.open(file, allocator)) {
          FileInfo info = reader.fileInfo();
          assertTrue(info.contains("BULKLOAD_TIMESTAMP"));
          assertTrue(info.getBoolean(FileInfo.MAJOR_COMPACTION_KEY, false));
          assertTrue(info.contains(FileInfo.TIMERANGE));
          assertTrue(info.contains(FileInfo.EARLIEST_PUT_TS));
          assertFalse(info.contains(FileInfo.KEY_VALUE_VERSION), "no per-cell sequence ids");
          assertFalse(info.contains(FileInfo.MAX_SEQ_ID_KEY));
          assertEquals(DataBlockEncoding.FAST_DIFF, reader.encoding());
          assertEquals("GZ", reader.trailer().compression().name());
        }
      }
    }
    try (Cellar target = Cellar.open(root.resolve("target"), CellarConfig.defaults())) {
      target.admin().createTable(twoFamilies("t"));
      BulkLoad.load(target, "t", out, false, line -> {});
      assertEquals(expected, dump(target.table("t")));
    }
    try (Cellar reopened = Cellar.open(root.resolve("target"), CellarConfig.defaults())) {
      assertEquals(expected, dump(reopened.table("t")));
      reopened.admin().majorCompact("t");
      assertEquals(expected, dump(reopened.table("t")));
    }
  }

  @Test
  void splitKeysCutEveryFamilyAtTheBoundaries() throws IOException {
    Path out = root.resolve("export");
    List<byte[]> splits = List.of(bytes("row-00300"), bytes("row-00100"), bytes("row-00100"));
    try (Cellar cellar = Cellar.open(root.resolve("db"), CellarConfig.defaults())) {
      cellar.admin().createTable(twoFamilies("t"));
      Table table = cellar.table("t");
      for (int i = 0; i < 500; i++) {
        table.put(
            new Put(bytes(String.format("row-%05d", i)))
                .addColumn(bytes("a"), bytes("q"), bytes("v" + i))
                .addColumn(bytes("b"), bytes("q"), bytes("v" + i)));
      }
      TableExport.export(cellar, "t", out, splits, line -> {});
    }
    try (BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
      for (String family : List.of("a", "b")) {
        List<String> ranges = new ArrayList<>();
        for (Path file : files(out.resolve(family))) {
          try (HFileReader reader = HFileReader.open(file, allocator)) {
            ranges.add(row(reader.firstKey()) + ".." + row(reader.lastKey()));
          }
        }
        ranges.sort(null);
        assertEquals(
            List.of("row-00000..row-00099", "row-00100..row-00299", "row-00300..row-00499"),
            ranges,
            family);
      }
    }
  }

  @Test
  void theExportIsThePointOfItsFlushWhileWritesGoOn() throws Exception {
    Path out = root.resolve("export");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger written = new AtomicInteger();
    try (Cellar cellar = Cellar.open(root.resolve("db"), CellarConfig.defaults())) {
      cellar.admin().createTable(twoFamilies("t"));
      Table table = cellar.table("t");
      Thread writer =
          Thread.ofPlatform()
              .name("export-test-writer")
              .start(
                  () -> {
                    try {
                      while (!stop.get()) {
                        int i = written.get();
                        table.put(
                            new Put(bytes(String.format("row-%07d", i)))
                                .addColumn(bytes("a"), bytes("q"), bytes("a" + i))
                                .addColumn(bytes("b"), bytes("q"), bytes("b" + i)));
                        written.incrementAndGet();
                        if (i % 997 == 0) {
                          cellar.admin().flush("t");
                        }
                      }
                    } catch (IOException e) {
                      throw new RuntimeException(e);
                    }
                  });
      while (written.get() < 2000) {
        Thread.onSpinWait();
      }
      TableExport.export(cellar, "t", out, List.of(), line -> {});
      int before = written.get();
      while (written.get() < before + 500) {
        Thread.onSpinWait();
      }
      stop.set(true);
      writer.join();
    }
    try (Cellar target = Cellar.open(root.resolve("target"), CellarConfig.defaults())) {
      BulkLoad.load(target, "t", out, false, line -> {});
      List<String> rows = dump(target.table("t"));
      assertEquals(0, rows.size() % 2, "both families of every row, or neither");
      int exportedRows = rows.size() / 2;
      assertTrue(
          exportedRows >= 2000 && exportedRows < written.get(),
          exportedRows + " of " + written.get());
      for (int i = 0; i < exportedRows; i++) {
        String row = String.format("row-%07d", i);
        assertTrue(rows.get(2 * i).startsWith(row + "/a:q/"), rows.get(2 * i));
        assertTrue(rows.get(2 * i + 1).startsWith(row + "/b:q/"), rows.get(2 * i + 1));
      }
    }
  }

  @Test
  void refusesAnOutputDirectoryInUse() throws IOException {
    Path out = Files.createDirectories(root.resolve("export"));
    Files.writeString(out.resolve("other"), "x");
    try (Cellar cellar = Cellar.open(root.resolve("db"), CellarConfig.defaults())) {
      cellar.admin().createTable(twoFamilies("t"));
      BulkLoadException e =
          assertThrows(
              BulkLoadException.class,
              () -> TableExport.export(cellar, "t", out, List.of(), line -> {}));
      assertTrue(e.getMessage().contains("is not empty"), e.getMessage());
      assertThrows(
          TableNotFoundException.class,
          () -> TableExport.export(cellar, "missing", root.resolve("x"), List.of(), l -> {}));
    }
  }

  private static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> list = Files.list(directory)) {
      return list.sorted().toList();
    }
  }

  private static String row(byte[] key) {
    int length = ((key[0] & 0xFF) << 8) | (key[1] & 0xFF);
    return Bytes.toStringBinary(Arrays.copyOfRange(key, 2, 2 + length));
  }
}
