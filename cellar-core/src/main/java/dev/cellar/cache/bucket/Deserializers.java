package dev.cellar.cache.bucket;

import dev.cellar.cache.CacheableDeserializer;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The {@link CacheableDeserializer}s registered as services, by name: how a restarted cache finds
 * the deserializer its persisted entries name. Loaded once; immutable afterwards.
 */
final class Deserializers {

  private static final Map<String, CacheableDeserializer> BY_NAME = load();

  private Deserializers() {}

  private static Map<String, CacheableDeserializer> load() {
    Map<String, CacheableDeserializer> byName = new HashMap<>();
    for (CacheableDeserializer deserializer : ServiceLoader.load(CacheableDeserializer.class)) {
      CacheableDeserializer previous = byName.putIfAbsent(deserializer.name(), deserializer);
      if (previous != null && previous.getClass() != deserializer.getClass()) {
        throw new IllegalStateException(
            "two block deserializers are named "
                + deserializer.name()
                + ": "
                + previous.getClass().getName()
                + " and "
                + deserializer.getClass().getName());
      }
    }
    return Map.copyOf(byName);
  }

  /** The registered deserializer named {@code name}, or null. */
  static CacheableDeserializer byName(String name) {
    return BY_NAME.get(name);
  }

  /** True if {@code deserializer}'s class is the one registered under its name. */
  static boolean isRegistered(CacheableDeserializer deserializer) {
    CacheableDeserializer registered = BY_NAME.get(deserializer.name());
    return registered != null && registered.getClass() == deserializer.getClass();
  }
}
