package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.hdfs.MiniHdfs;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileVerifier;
import dev.cellar.io.StorageLocation;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar export} to HDFS on a MiniDFSCluster: from a database on the same HDFS (the files
 * written there directly, never through a local disk) and from a local database; every exported
 * file is a valid HFile on HDFS in HBase's layout, cut at the split key, and the cells add up to
 * the table's after random puts and deletes; an output directory on HDFS that is not empty is
 * refused in one line naming its URI. The seed is printed; {@code -Dcellar.test.seed} repeats it.
 */
@ExtendWith(TestSeedExtension.class)
class HdfsExportTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  @TempDir Path local;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aDatabaseOnHdfsExportsIntoTheSameHdfs(TestSeed seed) throws IOException {
    exportAndCheck(hdfs.newDirectory("db"), seed);
  }

  @Test
  void aLocalDatabaseExportsToHdfs(TestSeed seed) throws IOException {
    exportAndCheck(local.resolve("db").toString(), seed);
  }

  private void exportAndCheck(String database, TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    String out = hdfs.newDirectory("export");
    TreeSet<String> rows = new TreeSet<>();
    List<TableExport.Family> families;
    try (Cellar cellar = Cellar.open(database, hdfs.config())) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t", ColumnFamilyDescriptor.of("a"), ColumnFamilyDescriptor.of("b")));
      // Each operation at a timestamp of its own: a put in the millisecond of the row's delete
      // would share its timestamp, and the delete would hide it (HBase's rule).
      long base = System.currentTimeMillis();
      for (int i = 0; i < 600; i++) {
        String row = String.format("row-%04d", random.nextInt(400));
        long timestamp = base + i;
        if (random.nextInt(5) == 0) {
          cellar
              .table("t")
              .delete(
                  new Delete(bytes(row))
                      .addFamily(bytes("a"), timestamp)
                      .addFamily(bytes("b"), timestamp));
          rows.remove(row);
        } else {
          cellar
              .table("t")
              .put(
                  new Put(bytes(row))
                      .addColumn(bytes("a"), bytes("q"), timestamp, bytes("a"))
                      .addColumn(bytes("b"), bytes("q"), timestamp, bytes("b" + i)));
          rows.add(row);
        }
        if (i == 300) {
          cellar.admin().flush("t");
        }
      }
      families =
          TableExport.export(
              cellar, "t", out, hdfs.config(), List.of(bytes("row-0200")), line -> {});

      BulkLoadException notEmpty =
          assertThrows(
              BulkLoadException.class,
              () -> TableExport.export(cellar, "t", out, hdfs.config(), List.of(), line -> {}));
      assertEquals(
          out + ": is not empty; export into a new or empty directory", notEmpty.getMessage());
    }
    long cells = 0;
    try (StorageLocation output = StorageLocation.resolve(out, hdfs.config().settings());
        BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
      for (TableExport.Family family : families) {
        assertTrue(
            family.files().stream().allMatch(file -> file.startsWith(out + "/")),
            "files named by their URIs: " + family.files());
        List<Path> files =
            family.files().stream().map(file -> Path.of(URI.create(file).getPath())).toList();
        assertEquals(
            List.of(output.directory().resolve(family.name())),
            files.stream().map(Path::getParent).distinct().toList(),
            "flat family directories on HDFS");
        assertEquals(2, files.size(), "cut at the split key");
        for (Path file : files) {
          try (HFileReader reader =
              HFileReader.open(output.storage(), file, allocator, UnaryOperator.identity())) {
            cells += HFileVerifier.verify(reader).cells();
          }
        }
      }
    }
    assertEquals(2L * rows.size(), cells);
    assertEquals(cells, families.stream().mapToLong(TableExport.Family::cells).sum());
  }
}
