package dev.cellar.cli.experiments.showdown;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Starts {@link ShowdownChild} in a JVM of its own, with this JVM's java and class path and the
 * deploy's heap (-Xms = -Xmx, as a region server runs) and direct memory limit, passes it the
 * request as a properties file, copies its output (indented) to the progress stream, waits for it
 * and reads its result. A child that fails or writes no result fails the run, naming the deploy.
 */
public final class ChildJvm {

  private ChildJvm() {}

  /** The child's command line up to its arguments: java, memory flags, class path, main class. */
  public static List<String> command(long heapBytes, long directBytes) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xms" + heapBytes);
    command.add("-Xmx" + heapBytes);
    command.add("-XX:MaxDirectMemorySize=" + directBytes);
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ShowdownChild.class.getName());
    return command;
  }

  /** Runs the child for {@code deploy} and returns what it measured. */
  public static Properties run(
      String deploy, List<String> command, Properties request, Path work, PrintStream output)
      throws IOException {
    Path requestFile = work.resolve("request.properties");
    Path resultFile = work.resolve("result.properties");
    Files.deleteIfExists(resultFile);
    try (Writer out = Files.newBufferedWriter(requestFile)) {
      request.store(out, "cellar bench showdown: " + deploy);
    }
    List<String> full = new ArrayList<>(command);
    full.add(requestFile.toString());
    full.add(resultFile.toString());
    Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
    int exit;
    try (BufferedReader lines = process.inputReader()) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        output.println("  " + line);
      }
      exit = process.waitFor();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while " + deploy + " ran", e);
    }
    if (exit != 0 || !Files.isRegularFile(resultFile)) {
      throw new IOException(
          "the JVM of deploy "
              + deploy
              + " ended with exit code "
              + exit
              + (Files.isRegularFile(resultFile) ? "" : " and no result")
              + " (its output is above)");
    }
    Properties result = new Properties();
    try (Reader in = Files.newBufferedReader(resultFile)) {
      result.load(in);
    }
    return result;
  }
}
