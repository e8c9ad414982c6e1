package dev.cellar.cli.experiments;

import java.io.PrintStream;
import java.util.List;

/**
 * What an experiment prints on stderr when it is a smoke run, before it starts and beside the files
 * it wrote, so that its figures are not read as answers; its report says the same.
 */
public final class SmokeNotice {

  private SmokeNotice() {}

  /** Prints the notice and its reasons under {@code command}'s name; nothing for a full run. */
  public static void print(String command, List<String> reasons, PrintStream out) {
    if (!reasons.isEmpty()) {
      out.println(
          command
              + ": a smoke run: its figures show that it runs, not what it measures,"
              + " since");
      reasons.forEach(reason -> out.println(command + ":   " + reason));
    }
  }

  /** " (a smoke run)" after the files written, or nothing for a full run. */
  public static String mark(List<String> reasons) {
    return reasons.isEmpty() ? "" : " (a smoke run)";
  }
}
