package dev.cellar.memory;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails any test that leaves a pooled buffer unreleased.
 *
 * <p>Registered for every test through {@code META-INF/services} and JUnit's extension
 * autodetection. Before each test it notes the leak detector's latest record id; after the test
 * (and after the test's own {@code @AfterEach} methods) it lists the tracked buffers created since
 * that are still open. Releases done by background threads get a short grace period. Each leaked
 * buffer is reported once, with where it was allocated and last touched, and then dismissed so the
 * next test starts clean. Needs leak detection at PARANOID, which the build sets for every test
 * JVM; at other levels the check can only see sampled buffers.
 */
public final class LeakCheckExtension implements BeforeEachCallback, AfterEachCallback {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(LeakCheckExtension.class);
  private static final String START_ID = "startId";
  private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NAMESPACE).put(START_ID, LeakDetector.lastRecordId());
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    long startId = context.getStore(NAMESPACE).get(START_ID, Long.class);
    List<LeakDetector.Outstanding> outstanding = LeakDetector.outstandingSince(startId);
    long deadline = System.nanoTime() + GRACE_NANOS;
    while (!outstanding.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
      outstanding = LeakDetector.outstandingSince(startId);
    }
    if (outstanding.isEmpty()) {
      return;
    }
    StringBuilder message =
        new StringBuilder()
            .append(context.getDisplayName())
            .append(" left ")
            .append(outstanding.size())
            .append(" pooled buffer(s) unreleased (leak detection level ")
            .append(LeakDetector.level())
            .append("):");
    for (LeakDetector.Outstanding leak : outstanding) {
      message.append("\n- ").append(leak.history());
      leak.dismiss();
    }
    throw new AssertionError(message.toString());
  }
}
