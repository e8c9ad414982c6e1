package dev.cellar.cli;

import dev.cellar.cli.shell.ShellCommand;
import java.io.PrintWriter;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code cellar} command: the entry point of every Cellar tool. The commands of this module
 * serve, inspect and move databases; those of a {@link CommandModule} on the class path (the
 * benchmark tools) follow them.
 */
@Command(
    name = "cellar",
    mixinStandardHelpOptions = true,
    description = "A wide-column key-value store with an off-heap read path.",
    subcommands = {CommandLine.HelpCommand.class, ServeCommand.class, ShellCommand.class,
        CheckCommand.class, RepairCommand.class, HFileCommand.class, ExportCommand.class,
        BulkLoadCommand.class})
public final class CellarCommand implements Runnable {

  private static final CellarVersion VERSION = new CellarVersion();

  @CommandLine.Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /**
   * The command line, which answers a bad option with its message and where to find help (exit
   * code 2) rather than the whole usage text. An argument starting with {@code @} is taken as it
   * is, not as a file of arguments: {@code --split-keys @FILE} names a file of keys. Every command
   * answers {@code --version} with {@link CellarVersion}'s line.
   */
  public static CommandLine commandLine() {
    CommandLine root = new CommandLine(new CellarCommand());
    for (CommandModule module : ServiceLoader.load(CommandModule.class)) {
      module.commands().forEach(root::addSubcommand);
    }
    return answeringVersion(root).setExpandAtFiles(false)
        .setParameterExceptionHandler((e, args) -> {
          CommandLine command = e.getCommandLine();
          PrintWriter err = command.getErr();
          err.println(e.getMessage());
          err.println("Try '" + command.getCommandSpec().qualifiedName()
              + " --help' for the options.");
          err.flush();
          return command.getCommandSpec().exitCodeOnInvalidInput();
        });
  }

  /**
   * Gives the command and its subcommands, at any depth, the shared version line. A command
   * without a {@code --version} option (the help command, and {@code bench jmh}, which hands its
   * options to JMH) gets one, without the short {@code -V}.
   */
  private static CommandLine answeringVersion(CommandLine command) {
    CommandSpec spec = command.getCommandSpec();
    spec.versionProvider(VERSION);
    if (spec.findOption("--version") == null) {
      spec.addOption(OptionSpec.builder("--version").versionHelp(true)
          .description("Print version information and exit.").build());
    }
    command.getSubcommands().values().forEach(CellarCommand::answeringVersion);
    return command;
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
