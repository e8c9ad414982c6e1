package dev.cellar.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test after which Netty reports a leaked buffer. Installs, once per JVM, a leak detector
 * factory at PARANOID level whose detectors record each report; after each test it collects garbage
 * and allocates through the pooled allocator (Netty looks for collected, unreleased buffers when it
 * tracks new ones), then fails with the reports. Best effort by nature: a leaked buffer still
 * reachable is not seen until it is collected.
 */
public final class NettyLeakCheck implements BeforeAllCallback, AfterEachCallback {

  private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
  private static volatile boolean installed;

  @Override
  public void beforeAll(ExtensionContext context) {
    install();
  }

  static synchronized void install() {
    if (installed) {
      return;
    }
    installed = true;
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(
        new ResourceLeakDetectorFactory() {
          @Override
          public <T> ResourceLeakDetector<T> newResourceLeakDetector(
              Class<T> resource, int samplingInterval) {
            return recording(resource, samplingInterval);
          }

          /**
           * Netty's abstract form, still required by the factory; the one above is what it calls.
           */
          @Override
          @SuppressWarnings("deprecation")
          public <T> ResourceLeakDetector<T> newResourceLeakDetector(
              Class<T> resource, int samplingInterval, long maxActive) {
            return recording(resource, samplingInterval);
          }

          private <T> ResourceLeakDetector<T> recording(Class<T> resource, int samplingInterval) {
            return new ResourceLeakDetector<>(resource, samplingInterval) {
              @Override
              protected void reportTracedLeak(String type, String records) {
                LEAKS.add(type + " " + records);
              }

              @Override
              protected void reportUntracedLeak(String type) {
                LEAKS.add(type);
              }
            };
          }
        });
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    for (int round = 0; round < 3 && LEAKS.isEmpty(); round++) {
      System.gc();
      Thread.sleep(20);
      for (int i = 0; i < 200; i++) {
        ByteBuf probe = PooledByteBufAllocator.DEFAULT.directBuffer(16);
        probe.release();
      }
    }
    if (!LEAKS.isEmpty()) {
      String reports = String.join("\n", LEAKS);
      LEAKS.clear();
      throw new AssertionError(context.getDisplayName() + " leaked Netty buffers:\n" + reports);
    }
  }
}
