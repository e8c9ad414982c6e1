package dev.cellar;

import dev.cellar.config.Settings;
import dev.cellar.spi.Engine;
import dev.cellar.spi.EngineAccess;

/**
 * Hands Cellar's other modules the internals behind {@link Cellar} and {@link CellarConfig} through
 * {@link EngineAccess}, with which it registers itself when initialized. Stateless.
 */
final class EngineOpener implements EngineAccess.Opener<Cellar, CellarConfig> {

  static {
    EngineAccess.register(new EngineOpener());
  }

  private EngineOpener() {}

  @Override
  public Engine engine(Cellar cellar) {
    return cellar.engine();
  }

  @Override
  public Settings settings(CellarConfig config) {
    return config.settings();
  }
}
