package dev.cellar.tools.guide;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code cellar} command line as the README or a guide page writes it in a code block: where it
 * stands, its text, and its arguments after {@code cellar} as a shell would split them. A synopsis
 * ({@code [options]}, {@code <file>}, {@code a|b} alternatives, {@code ...}) is not run or parsed
 * whole; only the option names it shows are checked.
 */
record GuideCommand(Path file, int line, String text, List<String> args, boolean synopsis) {

  @Override
  public String toString() {
    return file.getFileName() + ":" + line + ": " + text;
  }

  /** The option names the line shows ({@code --name}, {@code -D}), each once, in order. */
  List<String> optionNames() {
    List<String> names = new ArrayList<>();
    for (String word : text.split("[\\s\\[\\]|]+")) {
      String name = word.startsWith("-D") ? "-D" : word.replaceFirst("[=].*$", "");
      if (name.matches("--?[A-Za-z][A-Za-z0-9-]*") && !names.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }
}
