package dev.cellar.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The line every {@code cellar} command prints for {@code --version} (CellarCommand gives it to
 * each subcommand). The version is the build's project version, which Maven writes into
 * {@code version.properties} next to this class; a class path without that resource (an IDE's
 * build that skips filtering) gets the development version.
 */
public final class CellarVersion implements IVersionProvider {

  static final String DEVELOPMENT = "0.1.0-SNAPSHOT";

  @Override
  public String[] getVersion() {
    return new String[] {"Cellar " + version()};
  }

  static String version() {
    try (InputStream in = CellarVersion.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return DEVELOPMENT;
      }
      Properties properties = new Properties();
      properties.load(in);
      String version = properties.getProperty("version", "");
      return version.isEmpty() || version.startsWith("${") ? DEVELOPMENT : version;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
