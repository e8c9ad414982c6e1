package dev.cellar.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of the build this jar came from: what the web UI's summary, {@code cellar --version}
 * and the server's answers name. Maven writes the project version into {@code version.properties}
 * beside this class (see cellar-core's pom); a class path without that resource, or with it
 * unfiltered (an IDE's build), gets {@value #UNKNOWN} rather than a guess.
 */
public final class BuildVersion {

  public static final String UNKNOWN = "unknown";

  private BuildVersion() {}

  /** The version, or {@value #UNKNOWN}; reads the resource each time. */
  public static String read() {
    try (InputStream in = BuildVersion.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return UNKNOWN;
      }
      Properties properties = new Properties();
      properties.load(in);
      String version = properties.getProperty("version", "");
      return version.isEmpty() || version.startsWith("${") ? UNKNOWN : version;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
