package dev.cellar.cli.pe;

/** A PE run that cannot go on for a reason the user can fix; the message says what to do. */
public final class PeException extends RuntimeException {

  public PeException(String message) {
    super(message);
  }

  public PeException(String message, Throwable cause) {
    super(message, cause);
  }
}
