package dev.cellar.client.rpc;

import java.io.IOException;

/**
 * A call whose connection failed or closed before its answer came (or that could not connect);
 * retriable: the next attempt opens a new connection.
 */
public final class ConnectionClosedException extends IOException {

  private static final long serialVersionUID = 1L;

  ConnectionClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
