package dev.cellar.cli;

import dev.cellar.cli.pe.PeCommand;
import dev.cellar.cli.shell.ShellCommand;
import dev.cellar.cli.ycsb.YcsbCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code cellar} command: the entry point of every Cellar tool. */
@Command(
    name = "cellar",
    mixinStandardHelpOptions = true,
    version = "Cellar 0.1.0-SNAPSHOT",
    description = "A wide-column key-value store with an off-heap read path.",
    subcommands = {CommandLine.HelpCommand.class, DemoCommand.class, PeCommand.class,
        HFileCommand.class, CheckCommand.class, RepairCommand.class, ExportCommand.class,
        BulkLoadCommand.class,
        BenchCommand.class, ServeCommand.class, ShellCommand.class, YcsbCommand.class})
public final class CellarCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /**
   * The command line, which answers a bad option with its message and where to find help (exit
   * code 2) rather than the whole usage text. An argument starting with {@code @} is taken as it
   * is, not as a file of arguments: {@code --split-keys @FILE} names a file of keys.
   */
  public static CommandLine commandLine() {
    return new CommandLine(new CellarCommand()).setExpandAtFiles(false)
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

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
