package dev.cellar.spi;

import dev.cellar.config.Settings;

/**
 * For Cellar's own modules: the internals behind the public API's {@code Cellar} and {@code
 * CellarConfig}, which those types keep out of their public signatures so that the API shows no
 * type of an unexported package. The API package registers its {@link Opener} here when its class
 * {@code dev.cellar.EngineOpener} is initialized, which the first call brings about. This package
 * sits below {@code dev.cellar}, hence the type parameters: a caller passes the API's objects, and
 * anything else fails with a {@link ClassCastException}.
 *
 * <p>Thread-safe: the opener is published once, through a volatile field.
 */
public final class EngineAccess {

  private static final String REGISTRANT = "dev.cellar.EngineOpener";

  /**
   * Opens the API's objects.
   *
   * @param <C> the Cellar
   * @param <K> the CellarConfig
   */
  public interface Opener<C, K> {

    /** The engine behind an open embedded database. */
    Engine engine(C cellar);

    /** The typed view a configuration's components read their keys through. */
    Settings settings(K config);
  }

  private static volatile Opener<?, ?> opener;

  private EngineAccess() {}

  /**
   * Registers the API's opener (called by {@code dev.cellar} only).
   *
   * @throws IllegalStateException if an opener was registered already
   */
  public static synchronized void register(Opener<?, ?> registered) {
    if (opener != null) {
      throw new IllegalStateException("the API's opener is registered already");
    }
    opener = registered;
  }

  /** The engine behind {@code cellar}, an open {@code dev.cellar.Cellar}. */
  public static <C> Engine engine(C cellar) {
    return EngineAccess.<C, Object>opener().engine(cellar);
  }

  /** The settings of {@code config}, a {@code dev.cellar.CellarConfig}. */
  public static <K> Settings settings(K config) {
    return EngineAccess.<Object, K>opener().settings(config);
  }

  @SuppressWarnings("unchecked")
  private static <C, K> Opener<C, K> opener() {
    Opener<?, ?> current = opener;
    if (current == null) {
      try {
        Class.forName(REGISTRANT, true, EngineAccess.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(REGISTRANT + " is missing from cellar-core", e);
      }
      current = opener;
    }
    return (Opener<C, K>) current;
  }
}
