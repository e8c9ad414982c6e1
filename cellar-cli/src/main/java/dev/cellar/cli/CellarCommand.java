package dev.cellar.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code cellar} command: the entry point of every Cellar tool. */
@Command(
    name = "cellar",
    mixinStandardHelpOptions = true,
    version = "Cellar 0.1.0-SNAPSHOT",
    description = "A wide-column key-value store with an off-heap read path.",
    subcommands = {CommandLine.HelpCommand.class, DemoCommand.class, HFileCommand.class, BenchCommand.class})
public final class CellarCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new CellarCommand()).execute(args));
  }
}
