package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The old camelCase spellings of Cellar's own options are still accepted: each sets its option as
 * the kebab-case name does. The list below is every legacy name of every command, so that a new one
 * is tried here too.
 */
class LegacyOptionNamesTest {

  /** Command, legacy name, a value for it (or null for a flag), and the arguments still needed. */
  private record Spelling(String command, String legacy, String value, List<String> rest) {}

  private static final List<Spelling> SPELLINGS =
      List.of(
          new Spelling("demo", "--valueSize", "7", List.of()),
          new Spelling("pe", "--rowReader", null, List.of("randomRead", "1")),
          new Spelling("bench rocksdb", "--valueSize", "7", List.of()),
          new Spelling("bench rocksdb", "--keyLength", "20", List.of()),
          new Spelling("bench rocksdb", "--scanRows", "3", List.of()),
          new Spelling("bench rocksdb", "--cacheBlocks", "false", List.of()),
          new Spelling("bench rocksdb", "--cacheRatio", "0.5", List.of()),
          new Spelling("bench rocksdb", "--cacheTier", "L2", List.of()),
          new Spelling("bench rocksdb", "--cellarApi", "result", List.of()),
          new Spelling("bench encoding", "--blockSize", "4096", List.of()));

  @Test
  void everyLegacyNameIsTried() {
    Set<String> legacy = new TreeSet<>();
    collect(CellarCommand.commandLine(), legacy);
    Set<String> tried = new TreeSet<>();
    SPELLINGS.forEach(spelling -> tried.add(spelling.command() + " " + spelling.legacy()));
    assertEquals(legacy, tried);
  }

  @Test
  void aLegacyNameSetsItsOptionAsTheKebabCaseNameDoes() {
    for (Spelling spelling : SPELLINGS) {
      Object old = parsedValue(spelling, spelling.legacy());
      Object kebab = parsedValue(spelling, LegacyOptionNames.kebabCase(spelling.legacy()));
      assertEquals(kebab, old, spelling.toString());
    }
  }

  private static Object parsedValue(Spelling spelling, String name) {
    List<String> args = new ArrayList<>(Arrays.asList(spelling.command().split(" ")));
    args.add(name);
    if (spelling.value() != null) {
      args.add(spelling.value());
    }
    args.addAll(spelling.rest());
    ParseResult result = CellarCommand.commandLine().parseArgs(args.toArray(String[]::new));
    while (result.hasSubcommand()) {
      result = result.subcommand();
    }
    OptionSpec option = result.matchedOption(LegacyOptionNames.kebabCase(spelling.legacy()));
    return option.getValue();
  }

  /** {@code "<command> <legacy name>"} for every legacy name of {@code command} and below. */
  private static void collect(CommandLine command, Set<String> legacy) {
    String name = command.getCommandSpec().qualifiedName(" ").replaceFirst("^cellar ", "");
    for (OptionSpec option : command.getCommandSpec().options()) {
      List<String> names = Arrays.asList(option.names());
      names.stream()
          .filter(candidate -> LegacyOptionNames.isLegacy(candidate, names))
          .forEach(old -> legacy.add(name + " " + old));
    }
    command.getSubcommands().values().forEach(sub -> collect(sub, legacy));
  }
}
