package dev.cellar.config;

/**
 * Thrown when a configuration value cannot be used; the message names the key, the value and why.
 */
public final class InvalidConfigException extends IllegalArgumentException {

  private final String key;

  public InvalidConfigException(String key, String value, String why) {
    super("invalid configuration " + key + "=" + value + ": " + why);
    this.key = key;
  }

  /** The configuration key whose value was rejected. */
  public String key() {
    return key;
  }
}
