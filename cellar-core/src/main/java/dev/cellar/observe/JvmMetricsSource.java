package dev.cellar.observe;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * Hadoop's {@code Hadoop:service=HBase,name=JvmMetrics}, which HBase registers beside its own
 * sources: heap and non-heap memory in megabytes ({@code MemHeapUsedM}, ...), collections and their
 * time, in total ({@code GcCount}, {@code GcTimeMillis}) and per collector with the collector's
 * name appended without spaces ({@code GcCountG1YoungGeneration}), and thread counts.
 */
final class JvmMetricsSource implements MetricSource {

  private static final double MB = 1024 * 1024;

  @Override
  public String objectName() {
    return "Hadoop:service=HBase,name=JvmMetrics";
  }

  @Override
  public String recordName() {
    return "JvmMetrics";
  }

  @Override
  public String context() {
    return "jvm";
  }

  @Override
  public String description() {
    return "JVM memory, garbage collection and threads";
  }

  @Override
  public List<Metric> read() {
    List<Metric> out = new ArrayList<>();
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    MemoryUsage nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
    out.add(Metric.gauge("MemNonHeapUsedM", "Non-heap memory used in MB", nonHeap.getUsed() / MB));
    out.add(
        Metric.gauge(
            "MemNonHeapCommittedM",
            "Non-heap memory committed in MB",
            nonHeap.getCommitted() / MB));
    out.add(Metric.gauge("MemHeapUsedM", "Heap memory used in MB", heap.getUsed() / MB));
    out.add(
        Metric.gauge("MemHeapCommittedM", "Heap memory committed in MB", heap.getCommitted() / MB));
    out.add(Metric.gauge("MemHeapMaxM", "Max heap memory size in MB", heap.getMax() / MB));
    out.add(
        Metric.gauge("MemMaxM", "Max memory size in MB", Runtime.getRuntime().maxMemory() / MB));
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      String name = bean.getName().replace(" ", "");
      long beanCount = Math.max(0, bean.getCollectionCount());
      long beanMillis = Math.max(0, bean.getCollectionTime());
      out.add(Metric.counter("GcCount" + name, "Collections by " + bean.getName(), beanCount));
      out.add(
          Metric.counter(
              "GcTimeMillis" + name, "Collection time of " + bean.getName(), beanMillis));
      count += beanCount;
      millis += beanMillis;
    }
    out.add(Metric.counter("GcCount", "Total GC count", count));
    out.add(Metric.counter("GcTimeMillis", "Total GC time in milliseconds", millis));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    out.add(Metric.gauge("ThreadsLive", "Live threads", threads.getThreadCount()));
    out.add(Metric.gauge("ThreadsDaemon", "Daemon threads", threads.getDaemonThreadCount()));
    return out;
  }
}
