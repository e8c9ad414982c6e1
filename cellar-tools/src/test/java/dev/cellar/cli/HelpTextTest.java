package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The help text of every command, at picocli's default width of 80: each command's listing in its
 * parent's help is one whole sentence on one line; no line is wider; a dotted name (a class, a
 * configuration key, a file name) or a URL is never cut at the end of a line; options show their
 * kebab-case names and not their old camelCase ones; an example is never wrapped; and the exit
 * codes close every help.
 */
class HelpTextTest {

  private static final int WIDTH = 80;
  private static final Pattern LISTING = Pattern.compile("  (\\S+) +(.*)");

  /** A whitespace-free run holding a dot between two word characters, or {@code ://}. */
  private static final Pattern DOTTED_OR_URL = Pattern.compile("\\S*(\\w\\.\\w|://)\\S*");

  /** What may surround such a token in a sentence without belonging to it. */
  private static final Pattern SURROUNDING = Pattern.compile("^[(\\[{\"']+|[)\\]}\"',;:.]+$");

  @Test
  void everySummaryIsOneWholeSentence() {
    for (CommandLine command : commands()) {
      for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
        String summary = summary(sub.getValue().getCommandSpec());
        assertTrue(
            summary.endsWith(".") && Character.isUpperCase(summary.charAt(0)),
            () -> sub.getKey() + ": " + summary);
      }
      if (!command.getSubcommands().isEmpty()) {
        String help = help(command);
        List<String> listing = Arrays.asList(help.split("\n"));
        listing = listing.subList(listing.indexOf("Commands:") + 1, listing.indexOf("Exit codes:"));
        assertEquals(command.getSubcommands().size(), listing.size(), help);
        for (String line : listing) {
          assertTrue(LISTING.matcher(line).matches() && line.endsWith("."), line + "\n" + help);
        }
      }
    }
  }

  @Test
  void noLineIsWiderThanTheDefaultWidth() {
    for (CommandLine command : commands()) {
      for (String line : help(command).split("\n")) {
        assertTrue(line.length() <= WIDTH, () -> name(command) + ": " + line);
      }
    }
  }

  /**
   * Every dotted name and URL of a command's texts (description, options, arguments, exit codes)
   * shows whole on one line of its help as often as the texts hold it, so that none was cut.
   */
  @Test
  void dottedNamesAndUrlsAreNeverCutAtTheEndOfALine() {
    for (CommandLine command : commands()) {
      String help = help(command);
      List<String> lines = Arrays.asList(help.split("\n"));
      String texts = String.join("\n", texts(command.getCommandSpec()));
      for (String token : dottedOrUrls(texts)) {
        long inTexts = occurrences(texts, token);
        long inHelp = lines.stream().mapToLong(line -> occurrences(line, token)).sum();
        assertTrue(inHelp >= inTexts, () -> name(command) + ": '" + token + "' is cut:\n" + help);
      }
    }
  }

  /** An example (a line of a description that starts with two spaces) is never wrapped. */
  @Test
  void examplesAreNeverWrapped() {
    for (CommandLine command : commands()) {
      for (String line : command.getCommandSpec().usageMessage().description()) {
        assertTrue(
            !line.startsWith("  ") || line.length() <= WIDTH, () -> name(command) + ": " + line);
      }
    }
  }

  @Test
  void optionsShowTheirKebabCaseNamesOnly() {
    for (CommandLine command : commands()) {
      String help = help(command);
      for (OptionSpec option : command.getCommandSpec().options()) {
        List<String> names = Arrays.asList(option.names());
        for (String name : names) {
          Pattern shown =
              Pattern.compile(
                  "(^|[\\s\\[,])" + Pattern.quote(name) + "($|[\\s=\\[,\\]])", Pattern.MULTILINE);
          boolean legacy = LegacyOptionNames.isLegacy(name, names);
          assertEquals(
              !legacy && !option.hidden(),
              shown.matcher(help).find(),
              () ->
                  name(command)
                      + ": "
                      + name
                      + (legacy ? " is shown" : " is not shown")
                      + ":\n"
                      + help);
        }
      }
    }
  }

  @Test
  void everyHelpEndsWithTheExitCodes() {
    for (CommandLine command : commands()) {
      String help = help(command);
      assertTrue(
          help.matches("(?s).*\nExit codes:\n  0   done\n  1   .*\n  2   usage error: .*"),
          () -> name(command) + ":\n" + help);
    }
  }

  /** What picocli lists for a command in its parent's help: its header, else its description. */
  private static String summary(CommandSpec spec) {
    String[] header = spec.usageMessage().header();
    String[] description = spec.usageMessage().description();
    return header.length > 0 ? header[0] : description.length > 0 ? description[0] : "";
  }

  private static List<String> texts(CommandSpec spec) {
    List<String> texts = new ArrayList<>(Arrays.asList(spec.usageMessage().description()));
    texts.addAll(Arrays.asList(spec.usageMessage().footer()));
    texts.addAll(spec.usageMessage().exitCodeList().values());
    spec.options().stream()
        .filter(option -> !option.hidden())
        .forEach(option -> texts.addAll(Arrays.asList(option.description())));
    spec.positionalParameters().stream()
        .filter(positional -> !positional.hidden())
        .forEach(positional -> texts.addAll(Arrays.asList(positional.description())));
    return texts;
  }

  private static List<String> dottedOrUrls(String text) {
    List<String> tokens = new ArrayList<>();
    Matcher matcher = DOTTED_OR_URL.matcher(text);
    while (matcher.find()) {
      tokens.add(SURROUNDING.matcher(matcher.group()).replaceAll(""));
    }
    return tokens;
  }

  private static long occurrences(String text, String token) {
    long count = 0;
    for (int at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length())) {
      count++;
    }
    return count;
  }

  private static String help(CommandLine command) {
    return command.getUsageMessage(CommandLine.Help.Ansi.OFF).replace(System.lineSeparator(), "\n");
  }

  private static String name(CommandLine command) {
    return command.getCommandSpec().qualifiedName();
  }

  private static List<CommandLine> commands() {
    return commands(CellarCommand.commandLine());
  }

  private static List<CommandLine> commands(CommandLine root) {
    List<CommandLine> all = new ArrayList<>(List.of(root));
    root.getSubcommands().values().forEach(sub -> all.addAll(commands(sub)));
    return all;
  }
}
