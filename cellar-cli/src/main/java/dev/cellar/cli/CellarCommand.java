package dev.cellar.cli;

import dev.cellar.cli.pe.PeCommand;
import dev.cellar.cli.shell.ShellCommand;
import dev.cellar.cli.ycsb.YcsbCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code cellar} command: the entry point of every Cellar tool. */
@Command(
    name = "cellar",
    mixinStandardHelpOptions = true,
    description = "A wide-column key-value store with an off-heap read path.",
    subcommands = {CommandLine.HelpCommand.class, DemoCommand.class, PeCommand.class,
        HFileCommand.class, CheckCommand.class, RepairCommand.class, ExportCommand.class,
        BulkLoadCommand.class,
        BenchCommand.class, ServeCommand.class, ShellCommand.class, YcsbCommand.class})
public final class CellarCommand implements Runnable {

  @CommandLine.Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The command line of every Cellar tool, with the {@link CommandLineConventions}. */
  public static CommandLine commandLine() {
    return CommandLineConventions.apply(new CommandLine(new CellarCommand()));
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
