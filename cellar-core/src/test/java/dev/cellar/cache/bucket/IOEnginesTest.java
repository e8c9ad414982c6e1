package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.config.InvalidConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IOEnginesTest {

  private static final long SEGMENT = 4096;
  private static final long CAPACITY = 4 * SEGMENT;

  @TempDir Path dir;

  private IOEngine create(String spec, boolean persistent) throws IOException {
    return IOEngines.create(spec, CAPACITY, SEGMENT, persistent);
  }

  private void assertEngine(
      String spec,
      Class<? extends IOEngine> type,
      String description,
      boolean persistent,
      boolean sharesMemory)
      throws IOException {
    try (IOEngine engine = create(spec, false)) {
      assertInstanceOf(type, engine, spec);
      assertEquals(description, engine.description(), spec);
      assertEquals(CAPACITY, engine.capacity(), spec);
      assertEquals(persistent, engine.isPersistent(), spec);
      assertEquals(sharesMemory, engine.sharesMemory(), spec);
    }
  }

  @Test
  void createsEachEngine() throws IOException {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    assertEngine("offheap", OffHeapIOEngine.class, "offheap", false, true);
    assertEngine(" heap\n", HeapIOEngine.class, "heap", false, true);
    assertEngine("file:" + a, FileIOEngine.class, "file:" + a, true, false);
    assertEngine("files:" + a + ", " + b, FileIOEngine.class, "files:" + a + "," + b, true, false);
    assertEngine("file:" + a + "," + b, FileIOEngine.class, "files:" + a + "," + b, true, false);
    assertEngine(" mmap:" + a + " ", MmapIOEngine.class, "mmap:" + a, true, false);
    assertEngine("pmem:" + b, MmapIOEngine.class, "pmem:" + b, true, true);
  }

  @Test
  void persistenceKeepsExistingFiles() throws IOException {
    for (String prefix : new String[] {"file:", "mmap:"}) {
      String spec = prefix + dir.resolve(prefix.replace(":", ".data"));
      try (IOEngine engine = create(spec, true)) {
        IOEngineContractTest.writeTo(engine, CAPACITY - 1, new byte[] {7});
      }
      try (IOEngine engine = create(spec, true)) {
        assertArrayEquals(
            new byte[] {7}, IOEngineContractTest.readFrom(engine, CAPACITY - 1, 1), spec);
      }
      try (IOEngine engine = create(spec, false)) {
        assertArrayEquals(
            new byte[] {0}, IOEngineContractTest.readFrom(engine, CAPACITY - 1, 1), spec);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "  ",
        "OFFHEAP",
        "Heap",
        "offheap2",
        "tmpfs:/x",
        "File:/x",
        "file:",
        "files:",
        "files:/a,,/b",
        "files:/a,",
        "files:/a,/a",
        "mmap:",
        "mmap:/a,/b",
        "pmem: ",
        "file:/a\0b"
      })
  void rejectsWhatIsNotAnEngine(String spec) {
    InvalidConfigException e =
        assertThrows(InvalidConfigException.class, () -> create(spec, false));
    assertEquals(BucketCacheConfig.IOENGINE_KEY, e.key());
    assertTrue(
        e.getMessage().contains(BucketCacheConfig.IOENGINE_KEY + "=" + spec), e.getMessage());
  }

  @Test
  void rejectsAMissingSpec() {
    InvalidConfigException e =
        assertThrows(InvalidConfigException.class, () -> create(null, false));
    assertEquals(BucketCacheConfig.IOENGINE_KEY, e.key());
  }

  @Test
  void capacityMustBeAPositiveMultipleOfTheSegmentSize() {
    assertThrows(
        IllegalArgumentException.class,
        () -> IOEngines.create("offheap", CAPACITY + 1, SEGMENT, false));
    assertThrows(
        IllegalArgumentException.class, () -> IOEngines.create("offheap", 0, SEGMENT, false));
    assertThrows(
        IllegalArgumentException.class, () -> IOEngines.create("offheap", CAPACITY, 0, false));
    assertTrue(Files.notExists(dir.resolve("never")));
    assertThrows(
        IllegalArgumentException.class,
        () -> IOEngines.create("file:" + dir.resolve("never"), CAPACITY + 1, SEGMENT, false));
    assertTrue(Files.notExists(dir.resolve("never")), "nothing is created for a bad capacity");
  }
}
