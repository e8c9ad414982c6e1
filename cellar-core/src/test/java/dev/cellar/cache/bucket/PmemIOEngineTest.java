package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PmemIOEngineTest extends IOEngineContractTest {

  @Override
  IOEngine create(Path dir, long capacity, long segmentSize) throws IOException {
    return new MmapIOEngine(dir.resolve("cache.pmem"), capacity, false, true);
  }

  @Override
  boolean expectPersistent() {
    return true;
  }

  @Override
  boolean expectSharesMemory() {
    return true;
  }

  @Test
  void viewsAreTheMappedFile() throws IOException {
    assertEquals("pmem:" + dir.resolve("cache.pmem"), engine.description());
    Buf view = engine.view(SEGMENT, 100, RefCnt.unpooled());
    assertTrue(view.isDirect());
    byte[] bytes = randomBytes(100);
    view.putBytes(0, bytes, 0, bytes.length);
    engine.sync();
    byte[] file = Files.readAllBytes(dir.resolve("cache.pmem"));
    byte[] written = new byte[100];
    System.arraycopy(file, SEGMENT, written, 0, 100);
    assertArrayEquals(bytes, written);
  }
}
