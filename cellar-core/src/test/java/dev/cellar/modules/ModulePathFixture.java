package dev.cellar.modules;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Builds and runs a small consumer module against Cellar's modules, the way an application on the
 * module path would: the tests themselves run on the class path, where every package is open to
 * every class, so the module boundary is checked here, outside them.
 *
 * <p>The module path holds the named modules asked for and what they require, found among the
 * test's class path entries (Cellar's built modules and their libraries), and nothing else: the
 * test fixtures (HBase's and Hadoop's unshaded jars) split packages the module system refuses. Not
 * thread-safe; one fixture per test.
 */
public final class ModulePathFixture {

  private static final long RUN_SECONDS = 120;

  private final Path directory;
  private final List<Path> modulePath;

  private ModulePathFixture(Path directory, List<Path> modulePath) {
    this.directory = directory;
    this.modulePath = modulePath;
  }

  /**
   * A fixture compiling into {@code directory}, its module path holding {@code roots} and the
   * modules they require, transitively, from this JVM's class path.
   *
   * @throws IllegalStateException if a module is not on the class path
   */
  public static ModulePathFixture of(Path directory, String... roots) {
    Map<String, ModuleReference> found = new LinkedHashMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      if (Files.exists(path) && !isTestArtifact(path)) {
        moduleAt(path).ifPresent(module -> found.putIfAbsent(module.descriptor().name(), module));
      }
    }
    Map<String, Path> closure = new LinkedHashMap<>();
    Deque<String> pending = new ArrayDeque<>(List.of(roots));
    while (!pending.isEmpty()) {
      String name = pending.pop();
      if (closure.containsKey(name) || ModuleFinder.ofSystem().find(name).isPresent()) {
        continue;
      }
      ModuleReference module = found.get(name);
      if (module == null) {
        throw new IllegalStateException("module " + name + " is not on the class path");
      }
      closure.put(name, Path.of(module.location().orElseThrow()));
      module.descriptor().requires().stream()
          .filter(requires -> !requires.modifiers().contains(Requires.Modifier.STATIC))
          .forEach(requires -> pending.push(requires.name()));
    }
    return new ModulePathFixture(directory, List.copyOf(closure.values()));
  }

  private static boolean isTestArtifact(Path path) {
    String name = path.getFileName().toString();
    return name.equals("test-classes") || name.endsWith("-tests.jar");
  }

  private static Optional<ModuleReference> moduleAt(Path path) {
    try {
      return ModuleFinder.of(path).findAll().stream().findFirst();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The module path's entries, the first root's first. */
  public List<Path> modulePathEntries() {
    return modulePath;
  }

  /** The module path, as javac and java take it. */
  public String modulePath() {
    return modulePath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }

  /**
   * Compiles module {@code name} from {@code sources} (file name under the module's source
   * directory to content, {@code module-info.java} among them) against the module path alone: an
   * empty class path replaces the one javac would take over from this JVM.
   *
   * @return javac's messages, and whether it compiled
   */
  public Compilation compile(String name, Map<String, String> sources) throws IOException {
    Path sourceRoot = directory.resolve("src").resolve(name);
    Path classes = directory.resolve("classes").resolve(name);
    Path noClassPath = Files.createDirectories(directory.resolve("no-class-path"));
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--module-path",
                modulePath(),
                "--class-path",
                noClassPath.toString(),
                "-d",
                classes.toString()));
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = sourceRoot.resolve(source.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      arguments.add(file.toString());
    }
    ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow();
    StringWriter messages = new StringWriter();
    PrintWriter out = new PrintWriter(messages);
    int status = javac.run(out, out, arguments.toArray(String[]::new));
    out.flush();
    return new Compilation(status == 0, messages.toString(), classes);
  }

  /**
   * Runs {@code mainClass} of the compiled {@code consumer} in a new JVM on the module path.
   *
   * @return what the program printed, its error output after it
   * @throws AssertionError if it does not exit with 0 in time
   */
  public String run(Compilation consumer, String module, String mainClass, String... arguments)
      throws IOException, InterruptedException {
    Path launcher = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command =
        new ArrayList<>(
            List.of(
                launcher.toString(),
                "--enable-native-access=dev.cellar.core",
                "--sun-misc-unsafe-memory-access=allow",
                "--module-path",
                consumer.classes() + File.pathSeparator + modulePath(),
                "--module",
                module + "/" + mainClass));
    command.addAll(List.of(arguments));
    Path output = directory.resolve("run.out");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    boolean exited = process.waitFor(RUN_SECONDS, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly().waitFor();
    }
    String printed = Files.readString(output);
    if (!exited || process.exitValue() != 0) {
      throw new AssertionError(
          "the consumer "
              + (exited
                  ? "exited with " + process.exitValue()
                  : "did not finish in " + RUN_SECONDS + " s")
              + ":\n"
              + printed);
    }
    return printed;
  }

  /** The source of a one-line {@code module-info.java}: module {@code name} requiring these. */
  public static String moduleInfo(String name, String... requires) {
    return "module "
        + name
        + " {"
        + Stream.of(requires)
            .map(module -> " requires " + module + ";")
            .collect(Collectors.joining())
        + " }\n";
  }

  /** What javac said of a consumer, and where its classes went. */
  public record Compilation(boolean compiled, String messages, Path classes) {}
}
