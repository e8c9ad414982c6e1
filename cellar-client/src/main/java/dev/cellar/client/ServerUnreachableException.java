package dev.cellar.client;

import java.io.IOException;

/**
 * No server listens at an address: its host has no address, or a TCP connection to it was refused
 * or not accepted in time. The message is one line naming the host, the port and what was tried.
 */
public final class ServerUnreachableException extends IOException {

  private static final long serialVersionUID = 1L;

  ServerUnreachableException(String message) {
    super(message);
  }
}
