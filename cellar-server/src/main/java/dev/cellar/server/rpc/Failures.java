package dev.cellar.server.rpc;

import dev.cellar.TableNotFoundException;
import dev.cellar.config.InvalidConfigException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns whatever a handler threw into the exception the client sees. A request's mistake (an {@link
 * IllegalArgumentException} from the engine's validation) is a DoNotRetryIOException with the
 * engine's message; an I/O failure is a plain IOException, which the client retries; anything else
 * is a server fault, logged with its stack and answered as DoNotRetry.
 */
final class Failures {

  private static final Logger LOG = LoggerFactory.getLogger(Failures.class);

  private Failures() {}

  static RpcException toRpc(String method, Throwable failure) {
    return switch (failure) {
      case RpcException rpc -> rpc;
      case MalformedCellBlockException e -> RpcException.doNotRetry(e.getMessage());
      case TableNotFoundException e ->
          RpcException.doNotRetry(RpcException.TABLE_NOT_FOUND, e.getMessage());
      case InvalidConfigException e -> RpcException.doNotRetry(e.getMessage());
      case IllegalArgumentException e -> RpcException.doNotRetry(e.getMessage());
      case IOException e -> RpcException.retriable(RpcException.IO, method + ": " + e);
      default -> {
        LOG.warn("{} failed", method, failure);
        yield RpcException.doNotRetry(method + " failed on the server: " + failure);
      }
    };
  }
}
