package dev.cellar.cli;

import dev.cellar.CellarConfig;
import dev.cellar.io.StorageLocation;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where a command finds its database and what it opens it with, the same in every command that
 * opens one: {@code --dir DIR}, {@code --wal-dir DIR}, and {@code --conf FILE} and {@code -D
 * key=value} ({@link ConfigOptions}). A command that has always taken the directory as its argument
 * ({@code cellar check DIR}) still does, with {@link #ARGUMENT} as its description, and passes it
 * here: giving both is fine when they name the same directory and a usage error when they do not.
 * Given neither, {@link #location} is {@value CellarConfig#ROOT_DIR}, as HBase's; {@link #given}
 * leaves the default to the command ({@code cellar pe}'s is a temporary database).
 */
public final class DatabaseOptions {

  /** The description of a command's {@code DIR} argument, the alternative to {@code --dir}. */
  public static final String ARGUMENT = "the database directory, as --dir DIR";

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "the database directory: a path or" + " a URI such as hdfs://host:8020/path")
  String dir;

  @Option(
      names = "--wal-dir",
      paramLabel = "DIR",
      description =
          "keep the write-ahead log in"
              + " DIR/wal (hbase.wal.dir): a path or a URI such as hdfs://host:8020/logs, outside the"
              + " database directory; give the same one at every open")
  String walDir;

  @Mixin ConfigOptions settings = new ConfigOptions();

  /** {@link #config()}, read once: the command and {@link #location} both want it. */
  private CellarConfig config;

  /**
   * The settings to open the database with: those of {@link ConfigOptions}, with {@value
   * CellarConfig#WAL_DIR} from {@code --wal-dir}, which overrides them.
   *
   * @throws CommandFailure when {@code --conf} names no readable site file
   */
  public CellarConfig config() {
    if (config == null) {
      CellarConfig given = settings.config();
      config = walDir == null ? given : given.with(CellarConfig.WAL_DIR, walDir);
    }
    return config;
  }

  /** The {@code --conf} and {@code -D} options. */
  public ConfigOptions settings() {
    return settings;
  }

  /**
   * The directory the command line names, by {@code --dir} or as {@code argument} (null for none),
   * or null when it names none.
   *
   * @throws ParameterException when both are given and name different directories
   */
  public String given(String argument) {
    if (argument != null && dir != null && !sameDirectory(argument, dir)) {
      throw new ParameterException(
          command.commandLine(),
          "DIR " + argument + " and --dir " + dir + " differ; give the database once");
    }
    return dir != null ? dir : argument;
  }

  /**
   * The database to open: {@link #given(String)}, else {@value CellarConfig#ROOT_DIR}.
   *
   * @throws ParameterException when there is neither, or DIR and {@code --dir} differ
   * @throws CommandFailure when {@code --conf} names no readable site file
   */
  public String location(String argument) {
    String location = given(argument);
    if (location == null) {
      location = config().get(CellarConfig.ROOT_DIR);
    }
    if (location == null) {
      throw new ParameterException(
          command.commandLine(),
          "no database given: give --dir DIR,"
              + " or set "
              + CellarConfig.ROOT_DIR
              + " (in --conf or as -D"
              + CellarConfig.ROOT_DIR
              + "=...)");
    }
    return location;
  }

  private static boolean sameDirectory(String one, String other) {
    if (StorageLocation.isLocalPath(one) && StorageLocation.isLocalPath(other)) {
      return Path.of(one)
          .toAbsolutePath()
          .normalize()
          .equals(Path.of(other).toAbsolutePath().normalize());
    }
    return one.equals(other);
  }
}
