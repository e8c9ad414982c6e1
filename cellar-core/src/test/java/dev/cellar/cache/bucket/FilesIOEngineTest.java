package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The file engine over three files: 8 segments dealt out as 3, 3 and 2. */
class FilesIOEngineTest extends IOEngineContractTest {

  private static final List<String> NAMES = List.of("a.data", "b.data", "c.data");

  @Override
  IOEngine create(Path dir, long capacity, long segmentSize) throws IOException {
    return new FileIOEngine(paths(), capacity, segmentSize, false);
  }

  private List<Path> paths() {
    return NAMES.stream().map(dir::resolve).toList();
  }

  @Override
  boolean expectPersistent() {
    return true;
  }

  @Override
  boolean expectSharesMemory() {
    return false;
  }

  @Test
  void spreadsTheCapacityOverTheFilesInWholeSegments() throws IOException {
    List<Path> paths = paths();
    assertEquals(3L * SEGMENT, Files.size(paths.get(0)));
    assertEquals(3L * SEGMENT, Files.size(paths.get(1)));
    assertEquals(2L * SEGMENT, Files.size(paths.get(2)));
    assertEquals(
        "files:" + paths.get(0) + "," + paths.get(1) + "," + paths.get(2), engine.description());
  }

  @Test
  void eachOffsetLandsInItsFile() throws IOException {
    long firstOfB = 3L * SEGMENT;
    long firstOfC = 6L * SEGMENT;
    writeTo(engine, firstOfB - 1, new byte[] {1});
    writeTo(engine, firstOfB, new byte[] {2});
    writeTo(engine, firstOfC - 1, new byte[] {3});
    writeTo(engine, firstOfC, new byte[] {4});
    writeTo(engine, CAPACITY - 1, new byte[] {5});
    engine.sync();
    List<Path> paths = paths();
    byte[] a = Files.readAllBytes(paths.get(0));
    byte[] b = Files.readAllBytes(paths.get(1));
    byte[] c = Files.readAllBytes(paths.get(2));
    assertEquals(1, a[a.length - 1]);
    assertEquals(2, b[0]);
    assertEquals(3, b[b.length - 1]);
    assertEquals(4, c[0]);
    assertEquals(5, c[c.length - 1]);
  }

  @Test
  void anAccessNeverStraddlesTwoFiles() {
    Buf buf = Buf.wrap(new byte[SEGMENT]);
    long offset = 3L * SEGMENT - 10;
    assertStraddles(offset, "a.data", () -> engine.read(offset, buf, 0, 20));
    assertStraddles(offset, "a.data", () -> engine.write(buf, 0, 20, offset));
    long inB = 6L * SEGMENT - 1;
    assertStraddles(inB, "b.data", () -> engine.write(buf, 0, 20, inB));
  }

  private void assertStraddles(long offset, String file, Executable access) {
    String message = assertThrows(IllegalArgumentException.class, access).getMessage();
    assertTrue(
        message.contains(
            "access of 20 bytes at offset "
                + offset
                + " runs past the end of file "
                + dir.resolve(file)),
        message);
  }

  @Test
  void needsASegmentPerFileAndDistinctFiles() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new FileIOEngine(paths(), 2L * SEGMENT, SEGMENT, false));
    Path same = dir.resolve("same.data");
    assertThrows(
        IllegalArgumentException.class,
        () -> new FileIOEngine(List.of(same, same), CAPACITY, SEGMENT, false));
  }
}
