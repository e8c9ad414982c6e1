package dev.cellar.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The exit codes every {@code cellar} command uses, and the list its {@code --help} shows: 0 the
 * command did its work, 1 it failed (one line on standard error says why), 2 the command line was
 * wrong and nothing was done. No command uses another code; what went wrong in detail is in the
 * command's output.
 */
public final class ExitCodes {

  public static final int DONE = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;

  static final String HEADING = "Exit codes:%n";

  private ExitCodes() {}

  /**
   * The list of a command's exit codes, {@code failed} saying what "failed" means for it (e.g.
   * "problems found, or the database could not be checked").
   */
  static Map<String, String> list(String failed) {
    Map<String, String> list = new LinkedHashMap<>();
    list.put(Integer.toString(DONE), "done");
    list.put(Integer.toString(FAILED), failed);
    list.put(
        Integer.toString(USAGE),
        "usage error: an unknown, missing or conflicting option or"
            + " argument, or a value of the wrong form; nothing was done");
    return list;
  }

  /** The list for a command without a more particular meaning of "failed". */
  static Map<String, String> standard() {
    return list("failed; one line on standard error says why");
  }
}
