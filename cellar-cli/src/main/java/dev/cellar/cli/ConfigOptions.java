package dev.cellar.cli;

import dev.cellar.CellarConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --conf FILE} and {@code -D key=value}, the same on every command that opens a database or
 * connects to a server: the settings it runs with, in HBase's names, from a site file in {@code
 * hbase-site.xml}'s format, each {@code -D} overriding the file's value.
 */
public final class ConfigOptions {

  @Option(
      names = "--conf",
      paramLabel = "FILE",
      description =
          "a site file to read settings" + " from: a cellar-site.xml, or an hbase-site.xml")
  Path conf;

  @Option(
      names = "-D",
      paramLabel = "key=value",
      description =
          "a setting, in HBase's names"
              + " (e.g. -Dhfile.block.cache.size=0.4); overrides the one of --conf")
  Map<String, String> properties = new LinkedHashMap<>();

  /**
   * The settings: the site file's, overridden by {@code -D}.
   *
   * @throws CommandFailure when {@code --conf} names no readable site file
   */
  public CellarConfig config() {
    if (conf == null) {
      return CellarConfig.defaults().withAll(properties);
    }
    if (!Files.isRegularFile(conf)) {
      throw new CommandFailure(
          "--conf " + conf + ": " + (Files.exists(conf) ? "not a file" : "no such file"));
    }
    try {
      return CellarConfig.load(conf).withAll(properties);
    } catch (IOException e) {
      throw new CommandFailure("--conf " + FileFailures.describe(e));
    }
  }

  /** The {@code -D} settings, in the order given. */
  public Map<String, String> overrides() {
    return properties;
  }
}
