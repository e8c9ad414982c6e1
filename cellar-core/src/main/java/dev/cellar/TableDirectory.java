package dev.cellar;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A table's directory and its descriptor file, {@value #DESCRIPTOR}: a Java properties file with
 * the table name, the write-ahead-log id at creation (so a re-created table never replays a
 * dropped table's log entries) and every family attribute as {@code family.<name>.<ATTRIBUTE>}.
 * Written to a temporary file and renamed into place. Stateless.
 */
final class TableDirectory {

  static final String DESCRIPTOR = ".tabledesc";

  private TableDirectory() {}

  /** A descriptor as stored: the table and the log id it was created at. */
  record Stored(TableDescriptor descriptor, long createdAtWalId) {}

  static void write(Path directory, TableDescriptor descriptor, long createdAtWalId)
      throws IOException {
    Files.createDirectories(directory);
    Properties properties = new Properties();
    properties.setProperty("name", descriptor.name());
    properties.setProperty("createdAtWalId", Long.toString(createdAtWalId));
    for (ColumnFamilyDescriptor family : descriptor.families()) {
      family.attributes().forEach((key, value) ->
          properties.setProperty("family." + family.name() + "." + key, value));
    }
    Path temporary = directory.resolve(DESCRIPTOR + ".tmp");
    try (OutputStream out = Files.newOutputStream(temporary)) {
      properties.store(out, "Cellar table descriptor");
    }
    Files.move(temporary, directory.resolve(DESCRIPTOR), StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }

  static Stored read(Path directory) throws IOException {
    Path file = directory.resolve(DESCRIPTOR);
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      properties.load(in);
    }
    String name = properties.getProperty("name");
    String created = properties.getProperty("createdAtWalId");
    if (name == null || created == null) {
      throw new IOException(file + ": missing 'name' or 'createdAtWalId'");
    }
    Map<String, Map<String, String>> families = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith("family.")) {
        int dot = key.lastIndexOf('.');
        String family = key.substring("family.".length(), dot);
        families.computeIfAbsent(family, f -> new TreeMap<>())
            .put(key.substring(dot + 1), properties.getProperty(key));
      }
    }
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    try {
      families.forEach((family, attributes) ->
          descriptors.add(ColumnFamilyDescriptor.of(family, attributes)));
      return new Stored(new TableDescriptor(name, descriptors), Long.parseLong(created));
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }
}
