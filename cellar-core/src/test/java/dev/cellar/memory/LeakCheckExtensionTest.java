package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.lang.ref.Reference;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** The leak check itself: it fails a test that leaks and passes one that does not. */
class LeakCheckExtensionTest {

  /** Fixtures run only through the engine test kit below (the build excludes the tag). */
  @Tag("fixture")
  static class Fixtures {
    static final BufAllocator ALLOCATOR =
        new BufAllocator(new BufAllocatorConfig(true, 1024, 16, 0, 2048, 4));

    @Test
    void leaksAPooledBuffer() {
      Buf buf = ALLOCATOR.allocate(100);
      buf.touch("touched by the leaking fixture");
    }

    @Test
    void leaksALargePooledBuffer() {
      Buf buf = ALLOCATOR.allocateContiguous(1500);
      buf.touch("touched by the large fixture");
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
    Events tests =
        EngineTestKit.engine("junit-jupiter")
            .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
            .selectors(selectClass(Fixtures.class))
            .execute()
            .testEvents();
    assertEquals(4, tests.started().count());
    List<String> messages =
        tests.failed().list().stream()
            .map(
                event ->
                    event
                        .getPayload(org.junit.platform.engine.TestExecutionResult.class)
                        .orElseThrow()
                        .getThrowable()
                        .orElseThrow()
                        .getMessage())
            .sorted()
            .toList();
    assertEquals(2, messages.size(), "only the leaking fixtures fail: " + messages);
    assertLeakReported(
        messages.get(0),
        "leaksALargePooledBuffer",
        "touched by the large fixture",
        "pooled buffer of 2048 bytes");
    assertLeakReported(
        messages.get(1),
        "leaksAPooledBuffer",
        "touched by the leaking fixture",
        "pooled buffer of 1024 bytes");
    BufAllocatorStats stats = Fixtures.ALLOCATOR.stats();
    assertEquals(1, stats.buffers().usedCount(), "the leaked buffer stays out");
    assertEquals(1, stats.largeBuffers().usedCount(), "the leaked large buffer stays out");
  }

  private static void assertLeakReported(String message, String test, String touch, String what) {
    assertTrue(message.contains(test + "()"), message);
    assertTrue(message.contains("1 pooled buffer(s) unreleased"), message);
    assertTrue(message.contains(what), message);
    assertTrue(message.contains("allocated here"), message);
    assertTrue(message.contains("Fixtures." + test), message);
    assertTrue(message.contains(touch), message);
  }

  @ParameterizedTest
  @ValueSource(ints = {512, 1500})
  void aBufferCollectedWithoutReleaseIsReportedAndReturnedToThePool(int size) throws Exception {
    try (BufAllocator allocator =
        new BufAllocator(new BufAllocatorConfig(true, 1024, 4, 0, 2048, 4))) {
      long leaksBefore = LeakDetector.garbageCollectedLeaks();
      allocateAndDrop(allocator, size);
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

  private static void allocateAndDrop(BufAllocator allocator, int size) {
    Buf buf = allocator.allocate(size);
    buf.putInt(0, 42);
    Reference.reachabilityFence(buf);
  }
}
