package dev.cellar.observe;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;

/**
 * A {@link MetricSource} as a read-only JMX MBean: its figures are its attributes ({@code long},
 * {@code double} or {@code String}), read afresh on every call. {@link #getAttributes} reads the
 * source once for all the names asked; {@link #getMBeanInfo} lists the attributes the source has
 * now (the size classes of a bucket cache come and go).
 */
final class SourceMBean implements DynamicMBean {

  private final MetricSource source;

  SourceMBean(MetricSource source) {
    this.source = source;
  }

  private Map<String, Metric> readAll() {
    Map<String, Metric> byName = new LinkedHashMap<>();
    for (Metric metric : source.read()) {
      byName.put(metric.name(), metric);
    }
    return byName;
  }

  @Override
  public Object getAttribute(String attribute) throws AttributeNotFoundException {
    Metric metric = readAll().get(attribute);
    if (metric == null) {
      throw new AttributeNotFoundException(source.objectName() + " has no attribute " + attribute);
    }
    return metric.value();
  }

  @Override
  public AttributeList getAttributes(String[] attributes) {
    Map<String, Metric> all = readAll();
    AttributeList list = new AttributeList();
    for (String name : attributes) {
      Metric metric = all.get(name);
      if (metric != null) {
        list.add(new Attribute(name, metric.value()));
      }
    }
    return list;
  }

  @Override
  public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
    throw new AttributeNotFoundException(source.objectName() + " is read-only");
  }

  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  @Override
  public Object invoke(String actionName, Object[] params, String[] signature) {
    throw new UnsupportedOperationException(source.objectName() + " has no operations");
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    List<Metric> metrics = source.read();
    MBeanAttributeInfo[] attributes = new MBeanAttributeInfo[metrics.size()];
    for (int i = 0; i < attributes.length; i++) {
      Metric metric = metrics.get(i);
      attributes[i] =
          new MBeanAttributeInfo(
              metric.name(), typeOf(metric.value()), metric.description(), true, false, false);
    }
    return new MBeanInfo(
        source.getClass().getName(), source.description(), attributes, null, null, null);
  }

  private static String typeOf(Object value) {
    return switch (value) {
      case Long l -> "long";
      case Double d -> "double";
      default -> String.class.getName();
    };
  }
}
