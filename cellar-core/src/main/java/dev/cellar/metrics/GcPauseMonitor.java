package dev.cellar.metrics;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Records the JVM's garbage collection pauses into {@link Operation#GC_PAUSE} as the JVM reports
 * them (the GC notifications of every {@link GarbageCollectorMXBean}), and counts those longer than
 * HBase's JvmPauseMonitor thresholds (1 s info, 10 s warn). Unlike HBase's monitor, which infers
 * pauses from a sleeping thread that overslept, these are the collectors' own durations.
 *
 * <p>Which collections are pauses: every bean but those whose name says they time concurrent cycles
 * ({@code ZGC Major Cycles}, {@code Shenandoah Cycles}); G1's {@code G1 Concurrent GC} reports its
 * remark and cleanup pauses, which stop the world.
 *
 * <p>Concurrency: the JVM calls the listener on its notification thread; recording is thread-safe.
 * {@link #close()} removes the listeners (a monitor per open database, so one left registered would
 * outlive its database).
 */
public final class GcPauseMonitor implements AutoCloseable {

  static final long INFO_THRESHOLD_MILLIS = 1_000;
  static final long WARN_THRESHOLD_MILLIS = 10_000;

  private final EngineMetrics metrics;
  private final NotificationListener listener = this::onNotification;
  private final List<NotificationEmitter> emitters = new ArrayList<>();

  private GcPauseMonitor(EngineMetrics metrics) {
    this.metrics = metrics;
  }

  /** Starts recording into {@code metrics}. */
  public static GcPauseMonitor start(EngineMetrics metrics) {
    GcPauseMonitor monitor = new GcPauseMonitor(metrics);
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (bean instanceof NotificationEmitter emitter && isPause(bean.getName())) {
        emitter.addNotificationListener(monitor.listener, null, null);
        monitor.emitters.add(emitter);
      }
    }
    return monitor;
  }

  static boolean isPause(String collectorName) {
    return !collectorName.contains("Cycles");
  }

  private void onNotification(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    recordPause(info.getGcInfo().getDuration());
  }

  /** Records one pause of {@code millis}. */
  void recordPause(long millis) {
    metrics.record(Operation.GC_PAUSE, TimeUnit.MILLISECONDS.toNanos(millis));
    if (millis > INFO_THRESHOLD_MILLIS) {
      metrics.increment(Counter.PAUSE_INFO_THRESHOLD);
    }
    if (millis > WARN_THRESHOLD_MILLIS) {
      metrics.increment(Counter.PAUSE_WARN_THRESHOLD);
    }
  }

  @Override
  public void close() {
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // already gone: nothing left to remove
      }
    }
    emitters.clear();
  }
}
