package dev.cellar.cli;

import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What every {@code cellar} command has in common, applied to the whole tree of commands at once
 * rather than declared by each:
 *
 * <ul>
 *   <li>the exit codes of {@link ExitCodes}: a usage error (bad, missing or conflicting options)
 *       prints its one-line message and where to find help, exit 2; a {@link CommandFailure} prints
 *       its one line, exit 1; and each command's help lists them, with what "failed" means for it
 *       when the command says so (its {@code exitCodeList} declares code 1 only);
 *   <li>the help layout of {@link CellarHelp};
 *   <li>{@code --version} with {@link CellarVersion}'s line, also on a command that has no such
 *       option of its own (the help command, and {@code bench jmh}, which hands its options to
 *       JMH), without the short {@code -V};
 *   <li>an argument starting with {@code @} is taken as it is, not as a file of arguments: {@code
 *       --split-keys @FILE} names a file of keys.
 * </ul>
 */
final class CommandLineConventions {

  private static final CellarVersion VERSION = new CellarVersion();

  private CommandLineConventions() {}

  static CommandLine apply(CommandLine root) {
    everyCommand(root);
    return root.setExpandAtFiles(false)
        .setHelpFactory(CellarHelp::new)
        .setParameterExceptionHandler(
            (e, args) -> {
              CommandLine command = e.getCommandLine();
              String name = command.getCommandSpec().qualifiedName();
              PrintWriter err = command.getErr();
              err.println(name + ": " + e.getMessage());
              err.println("Try '" + name + " --help' for the options.");
              err.flush();
              return ExitCodes.USAGE;
            })
        .setExecutionExceptionHandler(
            (e, command, parsed) -> {
              if (!(e instanceof CommandFailure)) {
                throw e;
              }
              PrintWriter err = command.getErr();
              err.println(command.getCommandSpec().qualifiedName() + ": " + e.getMessage());
              err.flush();
              return ExitCodes.FAILED;
            });
  }

  private static void everyCommand(CommandLine command) {
    CommandSpec spec = command.getCommandSpec();
    spec.versionProvider(VERSION);
    if (spec.findOption("--version") == null) {
      spec.addOption(
          OptionSpec.builder("--version")
              .versionHelp(true)
              .description("Print version information and exit.")
              .build());
    }
    Map<String, String> declared = spec.usageMessage().exitCodeList();
    if (!declared.keySet().stream().allMatch("1"::equals)) {
      throw new IllegalStateException(
          spec.qualifiedName()
              + " declares exit codes "
              + declared.keySet()
              + "; a command may only say what 1 (failed) means for it");
    }
    spec.usageMessage()
        .exitCodeListHeading(ExitCodes.HEADING)
        .exitCodeList(
            declared.isEmpty() ? ExitCodes.standard() : ExitCodes.list(declared.get("1")));
    command.getSubcommands().values().forEach(CommandLineConventions::everyCommand);
  }
}
