package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OffHeapIOEngineTest extends IOEngineContractTest {

  @Override
  IOEngine create(Path dir, long capacity, long segmentSize) {
    return new OffHeapIOEngine(capacity);
  }

  @Override
  boolean expectPersistent() {
    return false;
  }

  @Override
  boolean expectSharesMemory() {
    return true;
  }

  @Test
  void viewsAreDirectSingleSegmentBuffers() {
    Buf view = engine.view(SEGMENT - 10, 20, RefCnt.unpooled());
    assertTrue(view.isDirect());
    assertTrue(view.isSingleSegment());
    assertEquals("offheap", engine.description());
  }

  @Test
  void accessesAfterCloseFailInsteadOfTouchingFreedMemory() throws IOException {
    engine.close();
    assertThrows(IllegalStateException.class, () -> engine.read(0, Buf.wrap(new byte[1]), 0, 1));
  }
}
