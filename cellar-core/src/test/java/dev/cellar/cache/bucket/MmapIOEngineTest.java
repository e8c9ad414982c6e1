package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MmapIOEngineTest extends IOEngineContractTest {

  @Override
  IOEngine create(Path dir, long capacity, long segmentSize) throws IOException {
    return new MmapIOEngine(dir.resolve("cache.mmap"), capacity, false, false);
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
  void syncWritesTheBytesToTheFile() throws IOException {
    byte[] oracle = fill();
    engine.sync();
    assertArrayEquals(oracle, Files.readAllBytes(dir.resolve("cache.mmap")));
    assertEquals("mmap:" + dir.resolve("cache.mmap"), engine.description());
  }

  @Test
  void keepsAFileOfTheRightSizeOnlyWhenAskedTo() throws IOException {
    Path path = dir.resolve("kept.mmap");
    byte[] bytes = randomBytes(SEGMENT);
    try (IOEngine first = new MmapIOEngine(path, CAPACITY, true, false)) {
      writeTo(first, CAPACITY - SEGMENT, bytes);
      first.sync();
    }
    try (IOEngine kept = new MmapIOEngine(path, CAPACITY, true, false)) {
      assertArrayEquals(bytes, readFrom(kept, CAPACITY - SEGMENT, SEGMENT));
      writeTo(kept, 0, bytes);
    }
    try (IOEngine resized = new MmapIOEngine(path, 2 * CAPACITY, true, false)) {
      assertEquals(2 * CAPACITY, Files.size(path));
      assertArrayEquals(new byte[SEGMENT], readFrom(resized, 0, SEGMENT), "a resized file is new");
      writeTo(resized, 0, bytes);
    }
    try (IOEngine recreated = new MmapIOEngine(path, 2 * CAPACITY, false, false)) {
      assertArrayEquals(new byte[SEGMENT], readFrom(recreated, 0, SEGMENT), "not kept");
    }
  }
}
