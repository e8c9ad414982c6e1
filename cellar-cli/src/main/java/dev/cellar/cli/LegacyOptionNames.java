package dev.cellar.cli;

import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The old camelCase spellings of Cellar's own options, which are still accepted but no longer
 * shown. An option declared as {@code names = {"--value-size", "--valueSize"}} keeps both names for
 * parsing; {@code --valueSize} is a legacy name because it is the camelCase form of another of the
 * option's names. Options whose only spelling is camelCase (those of {@code cellar pe}, which are
 * HBase PerformanceEvaluation's) have no legacy name and are shown as they are.
 */
final class LegacyOptionNames {

  private LegacyOptionNames() {}

  /** {@code option} itself, or, when it has legacy names, a copy without them for display. */
  static OptionSpec shown(OptionSpec option) {
    List<String> names = Arrays.asList(option.names());
    String[] shown = names.stream().filter(name -> !isLegacy(name, names)).toArray(String[]::new);
    return shown.length == names.size() ? option : OptionSpec.builder(option).names(shown).build();
  }

  /** Whether {@code name} is the camelCase spelling of another of {@code names}. */
  static boolean isLegacy(String name, List<String> names) {
    String kebab = kebabCase(name);
    return !kebab.equals(name) && names.contains(kebab);
  }

  /** {@code --valueSize} as {@code --value-size}. */
  static String kebabCase(String name) {
    StringBuilder kebab = new StringBuilder(name.length() + 4);
    for (char c : name.toCharArray()) {
      if (Character.isUpperCase(c)) {
        kebab.append('-').append(Character.toLowerCase(c));
      } else {
        kebab.append(c);
      }
    }
    return kebab.toString();
  }
}
