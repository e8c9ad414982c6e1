package dev.cellar.tools.guide;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the {@code cellar} commands in the README and the user guide: inside fenced code blocks,
 * the lines that run {@code ./cellar} or {@code cellar} (after {@code $ } in a transcript, a pipe
 * or environment settings), joined across trailing backslashes, without their trailing {@code #
 * comment}, {@code &} or {@code < input}. Output lines that only quote a command ({@code cellar
 * serve: ...}) are not commands.
 */
final class GuideCommands {

  private static final Pattern INVOCATION =
      Pattern.compile(
          "^\\s*(?:[A-Z_]+=(?:\"[^\"]*\"|\\S+)\\s+)*(?:\\./)?cellar\\s+(?![a-z-]+:)(.*)$");
  private static final Pattern SYNOPSIS = Pattern.compile("\\[|<[a-z]|\\.\\.\\.|\\|");

  private GuideCommands() {}

  /** The README and every page under {@code docs/guide/} of the project at {@code root}. */
  static List<Path> pages(Path root) throws IOException {
    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> guide = Files.list(root.resolve("docs/guide"))) {
      guide.filter(page -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /** The commands of one page, in page order. */
  static List<GuideCommand> of(Path page) throws IOException {
    List<String> lines = Files.readAllLines(page);
    List<GuideCommand> commands = new ArrayList<>();
    boolean inBlock = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("```")) {
        inBlock = !inBlock;
        continue;
      }
      if (!inBlock) {
        continue;
      }
      int first = i;
      StringBuilder joined = new StringBuilder(line.replaceFirst("^\\$ ", ""));
      while (joined.toString().endsWith("\\") && i + 1 < lines.size()) {
        joined.setLength(joined.length() - 1);
        joined.append(' ').append(lines.get(++i).strip());
      }
      String text = withoutComment(joined.toString()).strip();
      int pipe = text.lastIndexOf(" | ");
      Matcher invocation = INVOCATION.matcher(text);
      if (!invocation.find() && pipe >= 0) {
        invocation = INVOCATION.matcher(text.substring(pipe + 3));
      }
      if (!invocation.find(0) || startsAsOutput(text)) {
        continue;
      }
      String rest =
          invocation.group(1).replaceFirst("\\s*&$", "").replaceFirst("\\s*<\\s*\\S+$", "");
      boolean synopsis = SYNOPSIS.matcher(rest).find();
      commands.add(new GuideCommand(page, first + 1, text, ShellWords.split(rest), synopsis));
    }
    return commands;
  }

  /** A line printed by a command names the command followed by a colon, at its start. */
  private static boolean startsAsOutput(String text) {
    return text.matches("^cellar [a-z-]+:.*");
  }

  /** The line without a {@code #} comment that starts outside quotes after a space. */
  private static String withoutComment(String line) {
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }
}
