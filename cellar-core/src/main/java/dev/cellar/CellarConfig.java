package dev.cellar;

import dev.cellar.config.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Cellar's configuration: keys and values as in HBase's {@code hbase-site.xml}, read from a {@code
 * cellar-site.xml} in the same format ({@code <configuration><property><name>...</name>
 * <value>...</value></property>...}) and overridden key by key (the command line's {@code
 * -Dkey=value}). Values are checked where they are used, and an invalid one fails the open, naming
 * its key. Immutable.
 */
public final class CellarConfig {

  /** The file name {@link #load(Path)} expects in a configuration directory. */
  public static final String SITE_FILE = "cellar-site.xml";

  /**
   * HBase's key for where the data lives: the database a command opens when it is given no
   * directory ({@link Cellar#open(CellarConfig)}); a path or a URI.
   */
  public static final String ROOT_DIR = "hbase.rootdir";

  /**
   * HBase's key for where the write-ahead log lives when not with the data: the log goes to {@code
   * wal/} in this directory (a path or a URI, on the same file system as the data or another),
   * which must not lie inside the database directory.
   */
  public static final String WAL_DIR = "hbase.wal.dir";

  private final Map<String, String> values;

  private CellarConfig(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  /** HBase's defaults for every key. */
  public static CellarConfig defaults() {
    return new CellarConfig(Map.of());
  }

  /**
   * Reads a site file.
   *
   * @throws IOException if it cannot be read or is not a configuration document; the message names
   *     the file
   */
  public static CellarConfig load(Path siteFile) throws IOException {
    try (InputStream in = Files.newInputStream(siteFile)) {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(new DefaultHandler()); // fails with the exception, prints nothing
      Element root = builder.parse(in).getDocumentElement();
      if (!root.getTagName().equals("configuration")) {
        throw new IOException(
            siteFile
                + ": the root element is <"
                + root.getTagName()
                + ">, expected <configuration>");
      }
      Map<String, String> values = new LinkedHashMap<>();
      NodeList properties = root.getElementsByTagName("property");
      for (int i = 0; i < properties.getLength(); i++) {
        Element property = (Element) properties.item(i);
        String name = child(property, "name");
        String value = child(property, "value");
        if (name == null || name.isBlank()) {
          throw new IOException(siteFile + ": property " + (i + 1) + " has no <name>");
        }
        values.put(name.trim(), value == null ? "" : value.trim());
      }
      return new CellarConfig(values);
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException(siteFile + ": not a readable configuration file: " + e.getMessage(), e);
    }
  }

  private static String child(Element parent, String tag) {
    NodeList children = parent.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      Node node = children.item(i);
      if (node instanceof Element element && element.getTagName().equals(tag)) {
        return element.getTextContent();
      }
    }
    return null;
  }

  /** This configuration with {@code key} set to {@code value}. */
  public CellarConfig with(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(values);
    copy.put(key, value);
    return new CellarConfig(copy);
  }

  /** This configuration with every entry of {@code overrides} set. */
  public CellarConfig withAll(Map<String, String> overrides) {
    Map<String, String> copy = new LinkedHashMap<>(values);
    copy.putAll(overrides);
    return new CellarConfig(copy);
  }

  /** The value of {@code key}, or null. */
  public String get(String key) {
    return values.get(key);
  }

  /** Every key that is set, with its value (unmodifiable). */
  public Map<String, String> values() {
    return values;
  }

  /**
   * The typed view the components read their keys through; other modules reach it through {@link
   * dev.cellar.spi.EngineAccess#settings}.
   */
  Settings settings() {
    return Settings.of(values);
  }

  @Override
  public String toString() {
    return "CellarConfig" + values;
  }
}
