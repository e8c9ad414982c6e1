package dev.cellar.cli;

import dev.cellar.config.BuildVersion;
import picocli.CommandLine.IVersionProvider;

/**
 * The line every {@code cellar} command prints for {@code --version} (CellarCommand gives it to
 * each subcommand): the build's version as {@link BuildVersion} reads it.
 */
public final class CellarVersion implements IVersionProvider {

  @Override
  public String[] getVersion() {
    return new String[] {"Cellar " + version()};
  }

  static String version() {
    return BuildVersion.read();
  }
}
