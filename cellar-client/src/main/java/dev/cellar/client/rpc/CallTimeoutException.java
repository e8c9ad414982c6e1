package dev.cellar.client.rpc;

import java.io.IOException;

/** A call that got no answer within its timeout; retriable, as HBase's client treats it. */
public final class CallTimeoutException extends IOException {

  private static final long serialVersionUID = 1L;

  CallTimeoutException(String message) {
    super(message);
  }
}
