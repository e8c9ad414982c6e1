package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.lang.ref.Reference;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** The leak check itself: it fails a test that leaks and passes one that does not. */
class LeakCheckExtensionTest {

  /** Fixtures run only through the engine test kit below (the build excludes the tag). */
  @Tag("fixture")
  static class Fixtures {
    static final BufAllocator ALLOCATOR =
        new BufAllocator(new BufAllocatorConfig(true, 1024, 16, 0));

    @Test
    void leaksAPooledBuffer() {
      Buf buf = ALLOCATOR.allocate(100);
      buf.touch("touched by the leaking fixture");
    }

    @Test
    void releasesEverything() {
      Buf buf = ALLOCATOR.allocate(100);
      buf.retainedSlice(0, 10).release();
      buf.release();
    }

    @Test
    void leaksOnlyHeapMemory() {
      BufAllocator.HEAP.allocate(10);
    }
  }

  @Test
  void failsTheLeakingTestAndNamesWhereTheBufferCameFrom() {
    Events tests = EngineTestKit.engine("junit-jupiter")
        .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
        .selectors(selectClass(Fixtures.class))
        .execute()
        .testEvents();
    assertEquals(3, tests.started().count());
    List<Event> failed = tests.failed().list();
    assertEquals(1, failed.size(), "only the leaking fixture fails");
    Throwable error = failed.get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
        .orElseThrow().getThrowable().orElseThrow();
    String message = error.getMessage();
    assertTrue(message.contains("leaksAPooledBuffer()"), message);
    assertTrue(message.contains("1 pooled buffer(s) unreleased"), message);
    assertTrue(message.contains("allocated here"), message);
    assertTrue(message.contains("Fixtures.leaksAPooledBuffer"), message);
    assertTrue(message.contains("touched by the leaking fixture"), message);
    assertEquals(1, Fixtures.ALLOCATOR.stats().usedBufferCount(), "the leaked buffer stays out");
  }

  @Test
  void aBufferCollectedWithoutReleaseIsReportedAndReturnedToThePool() throws Exception {
    try (BufAllocator allocator = new BufAllocator(new BufAllocatorConfig(true, 1024, 4, 0))) {
      long leaksBefore = LeakDetector.garbageCollectedLeaks();
      allocateAndDrop(allocator);
      assertEquals(1, allocator.stats().usedBufferCount());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (allocator.stats().usedBufferCount() != 0 && System.nanoTime() < deadline) {
        System.gc();
        Thread.sleep(20);
      }
      assertEquals(0, allocator.stats().usedBufferCount(), "the cleaner returned the buffer");
      assertEquals(leaksBefore + 1, LeakDetector.garbageCollectedLeaks());
    }
  }

  private static void allocateAndDrop(BufAllocator allocator) {
    Buf buf = allocator.allocate(512);
    buf.putInt(0, 42);
    Reference.reachabilityFence(buf);
  }
}
