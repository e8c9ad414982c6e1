package dev.cellar;

import static dev.cellar.BulkFixtures.bytes;
import static dev.cellar.BulkFixtures.writeHFile;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The region boundaries a bulk load infers for a table it creates: HBase's own example (its {@code
 * TestLoadIncrementalHFiles.testInferBoundaries}), and a load into a new table that comes out split
 * where its files' rows leave gaps.
 */
class FileBoundariesTest {

  @TempDir Path root;

  @Test
  void groupsOfOverlappingFilesEachStartARegionButTheFirst() {
    String[][] files = {
      {"a", "e"},
      {"r", "s"},
      {"o", "p"},
      {"g", "k"},
      {"v", "x"},
      {"c", "i"},
      {"m", "q"},
      {"s", "t"},
      {"u", "w"}
    };
    List<FileBoundaries.Span> spans = new ArrayList<>();
    for (String[] file : files) {
      spans.add(new FileBoundaries.Span(bytes(file[0]), bytes(file[1])));
    }
    assertArrayEquals(
        new byte[][] {bytes("m"), bytes("r"), bytes("u")}, FileBoundaries.splitKeys(spans));
    assertEquals(
        0,
        FileBoundaries.splitKeys(List.of(new FileBoundaries.Span(bytes("a"), bytes("z")))).length);
  }

  @Test
  void aTableABulkLoadCreatesIsSplitAtItsFilesGaps() throws IOException {
    Path dir = root.resolve("bulk");
    writeHFile(dir.resolve("f/0a"), "f", "a", 10, "v");
    writeHFile(dir.resolve("f/0k"), "f", "k", 10, "v");
    writeHFile(dir.resolve("g/0k"), "g", "k", 5, "v");
    try (Cellar cellar = Cellar.open(root.resolve("db"), CellarConfig.defaults())) {
      BulkLoad.load(cellar, "t", dir, false, line -> {});
      List<RegionInfo> regions = cellar.admin().regions("t");
      assertEquals(2, regions.size());
      assertArrayEquals(bytes("k00000"), regions.get(1).startKey());
      int rows = 0;
      try (ResultScanner scanner = cellar.table("t").scanner(new Scan())) {
        for (Result result : scanner) {
          result.close();
          rows++;
        }
      }
      assertEquals(20, rows);
    }
  }
}
