package dev.cellar.cli;

import java.util.Collection;
import java.util.Comparator;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The usage help of every {@code cellar} command: picocli's, with two changes. Text is wrapped
 * between words only ({@link WordWrapTable}), so that class names, dotted configuration keys and
 * URLs are never cut at the end of a line; and the old camelCase spellings of options ({@link
 * LegacyOptionNames}) are left out of the option list and the synopsis, though still accepted.
 */
final class CellarHelp extends Help {

  CellarHelp(CommandSpec command, ColorScheme colorScheme) {
    super(command, colorScheme);
  }

  @Override
  public IOptionRenderer createDefaultOptionRenderer() {
    IOptionRenderer picocli = super.createDefaultOptionRenderer();
    return (option, labels, scheme) ->
        picocli.render(LegacyOptionNames.shown(option), labels, scheme);
  }

  @Override
  protected Ansi.Text createDetailedSynopsisOptionsText(
      Collection<ArgSpec> done,
      List<OptionSpec> options,
      Comparator<OptionSpec> sort,
      boolean cluster) {
    List<OptionSpec> shown =
        options.stream()
            .filter(option -> !done.contains(option))
            .map(LegacyOptionNames::shown)
            .toList();
    return super.createDetailedSynopsisOptionsText(done, shown, sort, cluster);
  }

  @Override
  public Layout createDefaultLayout(
      List<OptionSpec> options, List<PositionalParamSpec> positionals, ColorScheme scheme) {
    TextTable picocli =
        TextTable.forDefaultColumns(
            scheme, calcLongOptionColumnWidth(options, positionals, scheme), width());
    return new Layout(
        scheme,
        WordWrapTable.like(picocli, scheme),
        createDefaultOptionRenderer(),
        createDefaultParameterRenderer());
  }

  /** The exit code list: picocli's two columns, sized by picocli for {@code map}. */
  @Override
  public TextTable createTextTable(Map<?, ?> map) {
    TextTable table = WordWrapTable.like(super.createTextTable(map), colorScheme());
    map.forEach(
        (key, value) ->
            table.addRowValues(format(String.valueOf(key)), format(String.valueOf(value))));
    return table;
  }

  @Override
  public String description(Object... params) {
    return paragraphs(commandSpec().usageMessage().description(), params);
  }

  @Override
  public String header(Object... params) {
    return paragraphs(commandSpec().usageMessage().header(), params);
  }

  @Override
  public String footer(Object... params) {
    return paragraphs(commandSpec().usageMessage().footer(), params);
  }

  private String paragraphs(String[] lines, Object... params) {
    TextTable table =
        WordWrapTable.like(
            TextTable.forColumns(colorScheme(), new Column(width(), 0, Column.Overflow.WRAP)),
            colorScheme());
    table.indentWrappedLines = 0;
    for (String line : lines) {
      table.addRowValues(format(line, params));
    }
    return table.toString();
  }

  private int width() {
    return commandSpec().usageMessage().width();
  }

  /** {@code line} formatted as picocli formats help text: as it is when it is no format. */
  private static String format(String line, Object... params) {
    try {
      return String.format(line, params);
    } catch (IllegalFormatException e) {
      return line;
    }
  }
}
