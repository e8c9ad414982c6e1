package dev.cellar.cli.shell;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar shell} on a pseudo-terminal (util-linux {@code script} runs it in a child JVM): Tab
 * completes a command, and a second session recalls the first one's commands from the history file
 * with the up arrow. Skipped where {@code script} is missing.
 */
class ShellTerminalTest {

  /** The up arrow in the application cursor mode JLine switches the terminal to. */
  private static final String UP = "\u001bOA";

  @TempDir Path home;
  @TempDir Path database;

  /** A shell on a terminal, its output collected as it comes. */
  private final class Session implements AutoCloseable {

    private final Process process;
    private final OutputStream keys;
    private final StringBuffer output = new StringBuffer();

    Session() throws IOException {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      String command =
          "'"
              + java
              + "' -Duser.home='"
              + home
              + "'"
              + " --enable-native-access=ALL-UNNAMED -cp '"
              + System.getProperty("java.class.path")
              + "' dev.cellar.cli.CellarCommand shell --create '"
              + database
              + "'";
      process =
          new ProcessBuilder("script", "-q", "-c", command, "/dev/null")
              .redirectErrorStream(true)
              .start();
      keys = process.getOutputStream();
      InputStream in = process.getInputStream();
      Thread.ofVirtual()
          .start(
              () -> {
                byte[] buffer = new byte[4096];
                try {
                  for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                  }
                } catch (IOException closed) {
                  // the session ended
                }
              });
    }

    /** Waits until the output holds {@code text} {@code count} times. */
    void await(String text, int count) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (occurrences(text) < count) {
        assertTrue(
            System.nanoTime() < deadline, "no " + count + " x '" + text + "' in:\n" + output);
        Thread.sleep(20);
      }
    }

    private int occurrences(String text) {
      String all = output.toString();
      int n = 0;
      for (int at = all.indexOf(text); at >= 0; at = all.indexOf(text, at + 1)) {
        n++;
      }
      return n;
    }

    void type(String text) throws IOException {
      keys.write(text.getBytes(StandardCharsets.UTF_8));
      keys.flush();
    }

    String output() {
      return output.toString();
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void tabCompletesAndTheHistoryOutlivesTheSession() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "util-linux script is missing");
    try (Session first = new Session()) {
      first.await("cellar> ", 1);
      first.type("create 't', 'f'\n");
      first.await("cellar> ", 2);
      first.type("coun\t't'\n");
      first.await("0 row(s)", 1);
      first.await("cellar> ", 3);
      first.type("exit\n");
      assertTrue(first.process.waitFor(30, TimeUnit.SECONDS), first.output());
      assertTrue(first.output().contains("count"), "Tab completed 'coun': " + first.output());
    }
    String history = Files.readString(home.resolve(".cellar_shell_history"));
    assertTrue(history.contains("create 't', 'f'") && history.contains("count 't'"), history);
    try (Session second = new Session()) {
      second.await("cellar> ", 1);
      second.type(UP + UP + "\n");
      // count prints "0 row(s)", the time it took, then "=> 0": the last line shows it ran whole.
      second.await("=> 0", 1);
      second.type("exit\n");
      assertTrue(second.process.waitFor(30, TimeUnit.SECONDS), second.output());
    }
  }
}
