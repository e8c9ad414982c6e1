package dev.cellar.cli;

import dev.cellar.cli.shell.ShellCommand;
import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code cellar} command: the entry point of every Cellar tool. The commands of this module
 * serve, inspect and move databases; those of a {@link CommandModule} on the class path (the
 * benchmark tools) follow them.
 */
@Command(
    name = "cellar",
    mixinStandardHelpOptions = true,
    description = "A wide-column key-value store with an off-heap read path.",
    subcommands = {
      CommandLine.HelpCommand.class,
      ServeCommand.class,
      ShellCommand.class,
      CheckCommand.class,
      RepairCommand.class,
      HFileCommand.class,
      ExportCommand.class,
      BulkLoadCommand.class
    })
public final class CellarCommand implements Runnable {

  @CommandLine.Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The command line of every Cellar tool, with the {@link CommandLineConventions}. */
  public static CommandLine commandLine() {
    CommandLine root = new CommandLine(new CellarCommand());
    for (CommandModule module : ServiceLoader.load(CommandModule.class)) {
      module.commands().forEach(root::addSubcommand);
    }
    return CommandLineConventions.apply(root);
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
