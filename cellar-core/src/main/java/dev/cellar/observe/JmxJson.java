package dev.cellar.observe;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

/**
 * The platform MBean server as JSON, in the shape of HBase's (and Hadoop's) {@code /jmx} servlet:
 *
 * <pre>
 * {"beans":[{"name":"Hadoop:service=HBase,name=RegionServer,sub=Server",
 *            "modelerType":"...", "regionCount":1, ...}, ...]}
 * </pre>
 *
 * {@code qry} is an {@link ObjectName} pattern (default {@code *:*}); {@code get=bean::attribute}
 * writes one attribute (a {@code *} in it makes it a pattern over attribute names); {@code excl}
 * leaves beans out; {@code description=true} wraps each attribute as {@code
 * {"description":...,"value":...}}. As there, attributes whose names hold a space or {@code =} are
 * left out, composite values become objects and tabular ones arrays, and an attribute that cannot
 * be read is skipped. Unlike there, the runtime's system properties and input arguments are not
 * published ({@link #withheld}): they hold the command line, passwords given with {@code -D}
 * included.
 */
public final class JmxJson {

  private final MBeanServer server;

  public JmxJson() {
    this(ManagementFactory.getPlatformMBeanServer());
  }

  JmxJson(MBeanServer server) {
    this.server = server;
  }

  /** The outcome of a query: the JSON and whether the request was well formed. */
  public record Response(int status, String json) {}

  /** Answers {@code /jmx} with its query parameters (each null when absent). */
  public Response query(String qry, String get, String excl, boolean description) {
    StringBuilder text = new StringBuilder();
    JsonWriter json = new JsonWriter(text);
    json.beginObject();
    try {
      ObjectName excluded = excl == null ? null : new ObjectName(excl);
      if (get != null) {
        int split = get.indexOf("::");
        if (split < 0 || get.indexOf("::", split + 2) >= 0) {
          json.name("result").value("ERROR");
          json.name("message").value("query format is not as expected: get=BEAN::ATTRIBUTE");
          json.endObject();
          return new Response(400, text.toString());
        }
        String attribute = get.substring(split + 2);
        boolean ok =
            write(json, new ObjectName(get.substring(0, split)), attribute, description, excluded);
        json.endObject();
        return new Response(ok ? 200 : 400, text.toString());
      }
      write(json, new ObjectName(qry == null ? "*:*" : qry), null, description, excluded);
      json.endObject();
      return new Response(200, text.toString());
    } catch (MalformedObjectNameException e) {
      StringBuilder error = new StringBuilder();
      new JsonWriter(error)
          .beginObject()
          .name("result")
          .value("ERROR")
          .name("message")
          .value("not a JMX object name: " + e.getMessage())
          .endObject();
      return new Response(400, error.toString());
    }
  }

  /** Writes the beans of {@code query}; false if a single attribute asked for is missing. */
  private boolean write(
      JsonWriter json,
      ObjectName query,
      String attribute,
      boolean description,
      ObjectName excluded) {
    Pattern[] patterns = null;
    String single = attribute;
    if (attribute != null && attribute.contains("*")) {
      String[] parts = attribute.split(",");
      patterns = new Pattern[parts.length];
      for (int i = 0; i < parts.length; i++) {
        patterns[i] = Pattern.compile(parts[i]);
      }
      single = null;
    }
    json.name("beans").beginArray();
    Set<ObjectName> names = new TreeSet<>(server.queryNames(query, null));
    for (ObjectName name : names) {
      if (excluded != null && excluded.apply(name)) {
        continue;
      }
      MBeanInfo info;
      try {
        info = server.getMBeanInfo(name);
      } catch (JMException e) {
        continue;
      }
      json.beginObject();
      json.name("name").value(name.toString());
      if (description && info.getDescription() != null && !info.getDescription().isEmpty()) {
        json.name("description").value(info.getDescription());
      }
      json.name("modelerType").value(info.getClassName());
      if (single != null && withheld(name, single)) {
        json.name("result").value("ERROR");
        json.name("message").value(single + " is not published: it holds the command line");
        json.endObject();
        json.endArray();
        return false;
      }
      if (single != null) {
        Object value;
        try {
          value = server.getAttribute(name, single);
        } catch (JMException | RuntimeException e) {
          json.name("result").value("ERROR");
          json.name("message").value("No attribute with name " + single + " was found.");
          json.endObject();
          json.endArray();
          return false;
        }
        writeAttribute(json, single, null, value);
      } else {
        writeAttributes(json, name, info, patterns, description);
      }
      json.endObject();
    }
    json.endArray();
    return true;
  }

  /**
   * Whether the attribute {@code attribute} of {@code bean} is withheld: the JVM's system
   * properties and input arguments (of {@code java.lang:type=Runtime}), which hold the whole
   * command line, so any {@code -D...password=...}, and are no figure a dashboard needs.
   */
  static boolean withheld(ObjectName bean, String attribute) {
    return (attribute.equals("SystemProperties") || attribute.equals("InputArguments"))
        && bean.getDomain().equals("java.lang")
        && "Runtime".equals(bean.getKeyProperty("type"));
  }

  private void writeAttributes(
      JsonWriter json, ObjectName name, MBeanInfo info, Pattern[] patterns, boolean description) {
    List<MBeanAttributeInfo> wanted = new ArrayList<>();
    for (MBeanAttributeInfo attribute : info.getAttributes()) {
      String attributeName = attribute.getName();
      if (!attribute.isReadable()
          || attributeName.equals("modelerType")
          || attributeName.contains("=")
          || attributeName.contains(" ")
          || withheld(name, attributeName)) {
        continue;
      }
      if (patterns != null && !matchesAny(patterns, attributeName)) {
        continue;
      }
      wanted.add(attribute);
    }
    String[] names = wanted.stream().map(MBeanAttributeInfo::getName).toArray(String[]::new);
    AttributeList values;
    try {
      values = server.getAttributes(name, names);
    } catch (JMException | RuntimeException e) {
      return;
    }
    Map<String, Object> byName = new HashMap<>();
    for (Attribute value : values.asList()) {
      byName.put(value.getName(), value.getValue());
    }
    for (MBeanAttributeInfo attribute : wanted) {
      if (byName.containsKey(attribute.getName())) {
        writeAttribute(
            json,
            attribute.getName(),
            description ? attribute.getDescription() : null,
            byName.get(attribute.getName()));
      }
    }
  }

  private static boolean matchesAny(Pattern[] patterns, String name) {
    for (Pattern pattern : patterns) {
      if (pattern.matcher(name).find()) {
        return true;
      }
    }
    return false;
  }

  private static void writeAttribute(
      JsonWriter json, String name, String description, Object value) {
    json.name(name);
    if (description != null && !description.isEmpty() && !description.equals(name)) {
      json.beginObject();
      json.name("description").value(description);
      json.name("value");
      writeValue(json, value);
      json.endObject();
    } else {
      writeValue(json, value);
    }
  }

  private static void writeValue(JsonWriter json, Object value) {
    switch (value) {
      case null -> json.nullValue();
      case Double d -> json.value(d.doubleValue());
      case Float f -> json.value(f.doubleValue());
      case Number n -> json.value(n.longValue());
      case Boolean b -> json.value(b.booleanValue());
      case CompositeData composite -> {
        json.beginObject();
        for (String key : composite.getCompositeType().keySet()) {
          writeAttribute(json, key, null, composite.get(key));
        }
        json.endObject();
      }
      case TabularData table -> {
        json.beginArray();
        for (Object row : table.values()) {
          writeValue(json, row);
        }
        json.endArray();
      }
      default -> {
        if (value.getClass().isArray()) {
          json.beginArray();
          for (int i = 0; i < Array.getLength(value); i++) {
            writeValue(json, Array.get(value, i));
          }
          json.endArray();
        } else {
          json.value(value.toString());
        }
      }
    }
  }
}
