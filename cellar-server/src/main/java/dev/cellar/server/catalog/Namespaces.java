package dev.cellar.server.catalog;

import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.LostAndFound;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NamespaceDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespaces clients see, each as HBase's {@code NamespaceDescriptor} (its name and
 * configuration, kept verbatim): {@value SchemaMapping#DEFAULT_NAMESPACE} and {@value
 * #SYSTEM_NAMESPACE} always, and those created through {@code Admin}. What may change when is the
 * {@link Catalog}'s business; this keeps them.
 *
 * <p><b>On disk</b>, one file per created namespace, {@code <dir>/<name>.namespace}: the
 * descriptor's bytes (not delimited), replaced atomically (written beside, forced, renamed, the
 * directory forced). The two built-in namespaces have none until their configuration is changed.
 *
 * <p><b>Concurrency.</b> Changes come from the catalog, one at a time under its lock, and publish a
 * new immutable map through a volatile field, which lookups read without locking.
 */
final class Namespaces {

  private static final Logger LOG = LoggerFactory.getLogger(Namespaces.class);

  static final String SYSTEM_NAMESPACE = "hbase";
  private static final String SUFFIX = ".namespace";

  private final Storage storage;
  private final Path directory;
  private volatile Map<String, NamespaceDescriptor> byName;

  private Namespaces(Storage storage, Path directory, Map<String, NamespaceDescriptor> loaded) {
    this.storage = storage;
    this.directory = directory;
    this.byName = Collections.unmodifiableMap(loaded);
  }

  /**
   * The namespaces kept in {@code directory} (created if missing), with the built-in ones; a
   * damaged namespace file is set aside in {@code lost} (the catalog makes the namespaces its
   * tables need again).
   */
  static Namespaces open(Storage storage, Path directory, LostAndFound lost) throws IOException {
    storage.createDirectories(directory);
    Map<String, NamespaceDescriptor> loaded = new TreeMap<>();
    loaded.put(SchemaMapping.DEFAULT_NAMESPACE, named(SchemaMapping.DEFAULT_NAMESPACE));
    loaded.put(SYSTEM_NAMESPACE, named(SYSTEM_NAMESPACE));
    for (Path file : storage.list(directory)) {
      if (file.getFileName().toString().endsWith(SUFFIX)) {
        NamespaceDescriptor namespace;
        try {
          namespace = read(storage, file);
        } catch (IOException e) {
          Path aside = lost.move(file, "damaged: " + e.getMessage());
          LOG.warn(
              "namespace file {} is damaged ({}); set aside as {}: the namespaces the tables"
                  + " need are made again, without their configuration",
              file,
              e.getMessage(),
              aside);
          continue;
        }
        loaded.put(namespace.getName().toStringUtf8(), namespace);
      }
    }
    return new Namespaces(storage, directory, loaded);
  }

  /** A descriptor with a name and no configuration. */
  static NamespaceDescriptor named(String name) {
    return NamespaceDescriptor.newBuilder().setName(ByteString.copyFromUtf8(name)).build();
  }

  /** Whether {@code name} is one of the namespaces that always exist. */
  static boolean builtIn(String name) {
    return name.equals(SchemaMapping.DEFAULT_NAMESPACE) || name.equals(SYSTEM_NAMESPACE);
  }

  /** The namespace {@code name}, or null. */
  NamespaceDescriptor get(String name) {
    return byName.get(name);
  }

  /** Every namespace, by name. */
  Collection<NamespaceDescriptor> all() {
    return byName.values();
  }

  /** Stores (creates or replaces) a namespace. */
  void put(NamespaceDescriptor namespace) throws IOException {
    String name = namespace.getName().toStringUtf8();
    Path target = directory.resolve(name + SUFFIX);
    Path temporary = directory.resolve(name + SUFFIX + ".tmp");
    byte[] bytes = SealedFile.seal(namespace.toByteArray());
    storage.deleteIfExists(temporary);
    try (AppendOnlyFile out = storage.create(temporary)) {
      out.append(bytes, 0, bytes.length);
      out.sync();
    }
    storage.rename(temporary, target);
    storage.syncDirectory(directory);
    Map<String, NamespaceDescriptor> changed = new TreeMap<>(byName);
    changed.put(name, namespace);
    byName = Collections.unmodifiableMap(changed);
  }

  /** Forgets a namespace that is not built in. */
  void remove(String name) throws IOException {
    storage.deleteIfExists(directory.resolve(name + SUFFIX));
    storage.syncDirectory(directory);
    Map<String, NamespaceDescriptor> changed = new TreeMap<>(byName);
    changed.remove(name);
    byName = Collections.unmodifiableMap(changed);
  }

  private static NamespaceDescriptor read(Storage storage, Path file) throws IOException {
    try {
      NamespaceDescriptor namespace =
          NamespaceDescriptor.parseFrom(SealedFile.open(file, storage.readAllBytes(file)));
      String expected = file.getFileName().toString();
      expected = expected.substring(0, expected.length() - SUFFIX.length());
      if (!namespace.getName().toStringUtf8().equals(expected)) {
        throw new IOException(
            file
                + ": names namespace '"
                + namespace.getName().toStringUtf8()
                + "', expected '"
                + expected
                + "'");
      }
      return namespace;
    } catch (InvalidProtocolBufferException e) {
      throw new IOException(file + ": not a namespace file: " + e.getMessage(), e);
    }
  }
}
