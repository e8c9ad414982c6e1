package dev.cellar.server.rpc;

/**
 * A request's cell block does not hold the cells its message announces (truncated, or lengths that
 * do not fit). The whole request is refused: past such a point no later cell of the block can be
 * attributed to its mutation.
 */
public final class MalformedCellBlockException extends Exception {

  private static final long serialVersionUID = 1L;

  public MalformedCellBlockException(String message) {
    super(message, null, false, false);
  }
}
