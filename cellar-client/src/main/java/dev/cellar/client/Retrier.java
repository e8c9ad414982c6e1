package dev.cellar.client;

import dev.cellar.TableNotFoundException;
import dev.cellar.client.rpc.CallTimeoutException;
import dev.cellar.client.rpc.ConnectionClosedException;
import dev.cellar.client.rpc.RemoteException;
import dev.cellar.client.rpc.RpcResponse;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Runs an operation's attempts with HBase's retry rules: a failure the server marked do-not-retry
 * (or of a class HBase never retries) ends the operation at once, turned into the exception the
 * embedded API throws for the same mistake; a stale region makes the next attempt look the region
 * up again; a timeout, a lost connection or any other server failure is retried after {@code pause
 * × BACKOFF[attempt]} (a longer pause when the server says it is overloaded), up to the configured
 * retries and within the operation timeout. Thread-safe (stateless per call).
 */
final class Retrier {

  /** HBase's pause multipliers per attempt. */
  private static final int[] BACKOFF = {1, 2, 3, 5, 10, 20, 40, 100, 100, 100, 100, 200, 200};

  private static final int OVERLOADED_FACTOR = 10;

  /** One attempt of an operation. */
  interface Attempt<T> {
    T run() throws IOException;
  }

  private final ClientSettings settings;
  private final RegionLocator locator;

  Retrier(ClientSettings settings, RegionLocator locator) {
    this.settings = settings;
    this.locator = locator;
  }

  /** Runs {@code attempt} until it succeeds or fails for good; {@code table} may be null. */
  <T> T run(String what, String table, Attempt<T> attempt) throws IOException {
    long deadline = System.nanoTime() + settings.operationTimeoutMillis() * 1_000_000;
    IOException last;
    for (int tries = 0; ; tries++) {
      try {
        return attempt.run();
      } catch (RemoteException e) {
        if (e.doNotRetry()) {
          throw translate(e, table);
        }
        if (table != null && e.is("NotServingRegionException")) {
          locator.forget(table);
        }
        last = e;
      } catch (CallTimeoutException | ConnectionClosedException e) {
        last = e;
      }
      if (tries >= settings.retries() || System.nanoTime() > deadline) {
        throw new IOException(
            what + " failed after " + (tries + 1) + " attempts: " + last.getMessage(), last);
      }
      long pause = settings.pauseMillis() * BACKOFF[Math.min(tries, BACKOFF.length - 1)];
      if (last instanceof RemoteException remote && remote.serverOverloaded()) {
        pause *= OVERLOADED_FACTOR;
      }
      sleep(Math.min(pause, Math.max(0, (deadline - System.nanoTime()) / 1_000_000)));
    }
  }

  /**
   * The embedded API's exception for a permanent failure: a missing table is {@link
   * TableNotFoundException}, an existing one, a family mistake of an alter or a request the server
   * refused as invalid is an {@link IllegalArgumentException} with the server's message; the others
   * stay {@link RemoteException}s.
   */
  static RuntimeException translateUnchecked(RemoteException e, String table) {
    if (e.is("TableNotFoundException")) {
      return new TableNotFoundException(table != null ? table : e.getMessage());
    }
    if (e.is("TableExistsException")) {
      return new IllegalArgumentException(
          "table " + (table != null ? table : e.getMessage()) + " already exists", e);
    }
    if (e.is("DoNotRetryIOException")
        || e.is("NoSuchColumnFamilyException")
        || e.is("InvalidFamilyOperationException")) {
      return new IllegalArgumentException(e.getMessage(), e);
    }
    return null;
  }

  private static IOException translate(RemoteException e, String table) {
    RuntimeException unchecked = translateUnchecked(e, table);
    if (unchecked != null) {
      throw unchecked;
    }
    return e;
  }

  /**
   * The answer of a call, its failure rethrown as the IOException it is. An interrupted wait leaves
   * the answer to be released when it comes.
   */
  static <M extends Message> RpcResponse<M> await(CompletableFuture<RpcResponse<M>> future)
      throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.thenAccept(RpcResponse::release);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the server");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IOException(cause);
    }
  }

  private static void sleep(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to retry");
    }
  }
}
