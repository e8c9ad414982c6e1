package dev.cellar.observe;

import java.util.List;

/**
 * A group of figures published together: one JMX MBean (HBase's object name where HBase has the
 * group), one Hadoop metrics record (its name and context give the Prometheus names and labels, as
 * HBase's /prometheus does). Figures are read when asked, never cached, so a reader sees the
 * counters as they are at that moment. Implementations are thread-safe.
 */
public interface MetricSource {

  /** The JMX object name, e.g. {@code Hadoop:service=HBase,name=RegionServer,sub=Server}. */
  String objectName();

  /** The metrics record name, e.g. {@code Server}: the first word of its Prometheus names. */
  String recordName();

  /** The metrics context, e.g. {@code regionserver}: the {@code context} label. */
  String context();

  String description();

  /** Every figure now, in a stable order. */
  List<Metric> read();
}
