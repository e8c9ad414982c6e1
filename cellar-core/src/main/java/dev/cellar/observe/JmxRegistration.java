package dev.cellar.observe;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A database's sources registered on the platform MBean server under their HBase names, until
 * {@link #close()}. A second database open in the same JVM finds the names taken and registers its
 * sources with {@code ,instance=2} (then 3, ...) appended, so both stay visible; the first keeps
 * the plain names an HBase operator's tools query.
 *
 * <p>Failure: a source that cannot be registered is logged and skipped; metrics never fail an open.
 *
 * <p>Concurrency: {@link #add} and {@link #close()} synchronize on the registration.
 */
public final class JmxRegistration implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(JmxRegistration.class);
  private static final int MAX_INSTANCES = 1000;

  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final List<ObjectName> registered = new ArrayList<>();

  private JmxRegistration() {}

  /** Registers every source of {@code sources}. */
  public static JmxRegistration register(List<MetricSource> sources) {
    JmxRegistration registration = new JmxRegistration();
    for (MetricSource source : sources) {
      registration.add(source);
    }
    return registration;
  }

  /** Registers one more source, until {@link #close()}. */
  public synchronized void add(MetricSource source) {
    registerOne(source);
  }

  private void registerOne(MetricSource source) {
    SourceMBean bean = new SourceMBean(source);
    try {
      for (int instance = 1; instance <= MAX_INSTANCES; instance++) {
        ObjectName name =
            new ObjectName(
                instance == 1
                    ? source.objectName()
                    : source.objectName() + ",instance=" + instance);
        try {
          server.registerMBean(bean, name);
          registered.add(name);
          return;
        } catch (InstanceAlreadyExistsException taken) {
          // another database of this JVM has it: try the next instance number
        }
      }
      LOG.warn(
          "JMX: {} is taken {} times over; not registered", source.objectName(), MAX_INSTANCES);
    } catch (JMException e) {
      LOG.warn("JMX: cannot register {}: {}", source.objectName(), e.toString());
    }
  }

  /** The names this registration holds. */
  public synchronized List<ObjectName> names() {
    return List.copyOf(registered);
  }

  @Override
  public synchronized void close() {
    for (ObjectName name : registered) {
      try {
        server.unregisterMBean(name);
      } catch (InstanceNotFoundException e) {
        // unregistered by someone else: nothing to do
      } catch (JMException e) {
        LOG.warn("JMX: cannot unregister {}: {}", name, e.toString());
      }
    }
    registered.clear();
  }
}
