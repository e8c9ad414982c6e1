package dev.cellar.cli;

/**
 * A command could not do its work, for a reason the user can act on: the command line prints {@code
 * <command>: <message>} as one line on standard error, without a stack trace, and exits with {@link
 * ExitCodes#FAILED}.
 */
public final class CommandFailure extends RuntimeException {

  public CommandFailure(String message) {
    super(message, null, false, false);
  }
}
