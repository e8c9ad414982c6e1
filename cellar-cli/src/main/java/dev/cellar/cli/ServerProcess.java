package dev.cellar.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code cellar serve} in a JVM of its own, as an experiment's region server or a test's: this
 * JVM's java and class path, the given heap ({@code -Xms} = {@code -Xmx}) and direct memory limit,
 * the database directory and the configuration as {@code -D} settings, listening on a free port of
 * {@code bind} (RPC and info server both on port 0). {@link #start} waits until the server prints
 * its addresses; a server that ends or stays silent first fails the start with its output.
 *
 * <p><b>Threads.</b> One daemon thread copies the server's output, indented, to the progress stream
 * for the server's whole life. {@link #close()} stops the server as an operator would (SIGTERM:
 * running calls finish and the database is flushed) and waits for it; one that does not end within
 * a minute is killed.
 */
public final class ServerProcess implements AutoCloseable {

  private static final Pattern ADVERTISED = Pattern.compile("\\(advertised (\\S+)\\)");
  private static final Pattern INFO = Pattern.compile("info server: http://(\\S+?)/");
  private static final long START_SECONDS = 120;

  private final String name;
  private final Process process;
  private final String address;
  private final String infoAddress;

  private ServerProcess(String name, Process process, String address, String infoAddress) {
    this.name = name;
    this.process = process;
    this.address = address;
    this.infoAddress = infoAddress;
  }

  /**
   * Starts a server named {@code name} (for messages) on {@code database}.
   *
   * @throws IOException naming the server when it cannot start, ends before it serves, or has not
   *     said where it listens within two minutes
   */
  public static ServerProcess start(
      String name,
      Path database,
      long heapBytes,
      long directBytes,
      Map<String, String> config,
      String bind,
      PrintStream progress)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xms" + heapBytes);
    command.add("-Xmx" + heapBytes);
    command.add("-XX:MaxDirectMemorySize=" + directBytes);
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("--sun-misc-unsafe-memory-access=allow");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(CellarCommand.class.getName());
    command.addAll(
        List.of(
            "serve",
            "--dir",
            database.toString(),
            "--bind",
            bind,
            "--port",
            "0",
            "--info-port",
            "0"));
    config.forEach((key, value) -> command.add("-D" + key + "=" + value));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    CompletableFuture<String[]> addresses = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("cellar-bench-server-output")
        .start(() -> copyOutput(process, addresses, progress));
    try {
      String[] found = addresses.get(START_SECONDS, TimeUnit.SECONDS);
      return new ServerProcess(name, process, found[0], found[1]);
    } catch (ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      throw new IOException(
          "the cellar serve of "
              + name
              + " did not start"
              + (e instanceof TimeoutException ? " within " + START_SECONDS + " s" : "")
              + " (its output is above)");
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the cellar serve of " + name + " started", e);
    }
  }

  private static void copyOutput(
      Process process, CompletableFuture<String[]> addresses, PrintStream progress) {
    String rpc = null;
    try (BufferedReader lines = process.inputReader()) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        progress.println("  " + line);
        Matcher advertised = ADVERTISED.matcher(line);
        if (advertised.find()) {
          rpc = advertised.group(1);
        }
        Matcher info = INFO.matcher(line);
        if (info.find() && rpc != null) {
          addresses.complete(new String[] {rpc, info.group(1)});
        }
      }
    } catch (IOException e) {
      progress.println("  (the server's output could not be read: " + e.getMessage() + ")");
    }
    addresses.completeExceptionally(new IOException("the server ended"));
  }

  /** The RPC address clients connect to, {@code host:port}. */
  public String address() {
    return address;
  }

  /** The info server's address ({@code /jmx}), {@code host:port}. */
  public String infoAddress() {
    return infoAddress;
  }

  /** Stops the server cleanly and waits for it. @throws IOException if it failed to stop */
  @Override
  public void close() throws IOException {
    process.destroy();
    try {
      if (!process.waitFor(1, TimeUnit.MINUTES)) {
        process.destroyForcibly().waitFor();
        throw new IOException(
            "the cellar serve of " + name + " did not stop within a minute" + " and was killed");
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the cellar serve of " + name + " stopped", e);
    }
    int exit = process.exitValue();
    if (exit != 0 && exit != 143) {
      throw new IOException(
          "the cellar serve of "
              + name
              + " ended with exit code "
              + exit
              + " (its output is above)");
    }
  }
}
