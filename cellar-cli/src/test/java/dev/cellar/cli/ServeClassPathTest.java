package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code cellar serve} runs on this module's class path, which must not carry the benchmark tools'
 * peers; and the launcher runs exactly this module's commands on it.
 */
class ServeClassPathTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "org.openjdk.jmh.Main",
        "org.rocksdb.RocksDB",
        "site.ycsb.DB",
        "org.HdrHistogram.Histogram",
        "org.apache.hadoop.hbase.regionserver.HRegionServer",
        "org.apache.hadoop.hbase.client.ConnectionFactory",
        "dev.cellar.cli.pe.PeCommand"
      })
  void isNotOnTheServersClassPath(String className) {
    assertThrows(
        ClassNotFoundException.class,
        () -> Class.forName(className, false, ServeClassPathTest.class.getClassLoader()));
  }

  @Test
  void theLauncherRunsThisModulesCommandsOnItsClassPath() throws IOException {
    String launcher = Files.readString(Path.of("..", "cellar"));
    Matcher lean =
        Pattern.compile("\\n\\s*([a-z|]+)\\) class_path=\"\\$cli_jar:").matcher(launcher);
    assertEquals(true, lean.find(), "the launcher's case for cellar-cli's commands");
    Set<String> launched = new TreeSet<>(Arrays.asList(lean.group(1).split("\\|")));
    Set<String> commands = new TreeSet<>(CellarCommand.commandLine().getSubcommands().keySet());
    commands.remove("help");
    assertEquals(commands, launched);
  }
}
