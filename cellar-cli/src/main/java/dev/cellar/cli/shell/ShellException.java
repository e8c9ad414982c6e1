package dev.cellar.cli.shell;

/** A command the shell cannot run as written: its one-line message says what is wrong. */
final class ShellException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ShellException(String message) {
    super(message);
  }
}
