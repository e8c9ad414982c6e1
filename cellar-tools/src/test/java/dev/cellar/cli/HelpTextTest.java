package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The help text of every command, at picocli's default width: each command's listing in its
 * parent's help is one whole sentence on one line.
 */
class HelpTextTest {

  private static final Pattern LISTING = Pattern.compile("  (\\S+) +(.*)");

  @Test
  void everySummaryIsOneWholeSentence() {
    for (CommandLine command : commands(CellarCommand.commandLine())) {
      for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
        String[] description = sub.getValue().getCommandSpec().usageMessage().description();
        assertTrue(description.length > 0 && description[0].endsWith("."),
            () -> sub.getKey() + ": " + Arrays.toString(description));
      }
      if (!command.getSubcommands().isEmpty()) {
        String help = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
        List<String> listing = Arrays.asList(help.split("\n"));
        listing = listing.subList(listing.indexOf("Commands:") + 1, listing.size());
        assertEquals(command.getSubcommands().size(), listing.size(), help);
        for (String line : listing) {
          assertTrue(LISTING.matcher(line).matches() && line.endsWith("."), line + "\n" + help);
        }
      }
    }
  }

  private static List<CommandLine> commands(CommandLine root) {
    List<CommandLine> all = new ArrayList<>(List.of(root));
    root.getSubcommands().values().forEach(sub -> all.addAll(commands(sub)));
    return all;
  }
}
