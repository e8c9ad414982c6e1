package dev.cellar.cache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import dev.cellar.memory.RefCnt;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class HeapIOEngineTest extends IOEngineContractTest {

  @Override
  IOEngine create(Path dir, long capacity, long segmentSize) {
    return new HeapIOEngine(capacity, segmentSize);
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
  void viewsAreHeapBuffers() {
    Buf view = engine.view(0, 20, RefCnt.unpooled());
    assertFalse(view.isDirect());
    assertEquals("heap", engine.description());
  }

  @Test
  void anAccessCrossingASegmentIsRefused() {
    Buf buf = Buf.wrap(new byte[4]);
    long offset = 3L * SEGMENT - 1;
    assertCrossing(offset, () -> engine.read(offset, buf, 0, 2));
    assertCrossing(offset, () -> engine.write(buf, 0, 2, offset));
    assertCrossing(offset, () -> engine.view(offset, 2, RefCnt.unpooled()));
  }

  private static void assertCrossing(long offset, Executable access) {
    String message = assertThrows(IllegalArgumentException.class, access).getMessage();
    assertTrue(
        message.contains(
            "heap: access of 2 bytes at offset " + offset + " runs past the end of segment 2"),
        message);
  }

  @Test
  void capacityMustBeAWholeNumberOfSegments() {
    assertThrows(IllegalArgumentException.class, () -> new HeapIOEngine(1000, 300));
    assertThrows(IllegalArgumentException.class, () -> new HeapIOEngine(0, 300));
    assertThrows(IllegalArgumentException.class, () -> new HeapIOEngine(1000, 0));
  }
}
