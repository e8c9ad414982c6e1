package dev.cellar.client.rpc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.Parser;

/**
 * A call sent and not yet answered: the parser of its response message, the future its caller waits
 * on, and the timer that fails it. Completed at most once, by the response, the timer or the
 * connection's end, whichever comes first; a response that arrives later is dropped (and its cell
 * block released).
 */
final class PendingCall<T extends Message> {

  final int callId;
  final String method;
  final Parser<T> parser;
  final CompletableFuture<RpcResponse<T>> future = new CompletableFuture<>();
  volatile ScheduledFuture<?> timer;

  PendingCall(int callId, String method, Parser<T> parser) {
    this.callId = callId;
    this.method = method;
    this.parser = parser;
  }

  /** Hands {@code response} to the caller; releases its cells if the call already ended. */
  void succeed(RpcResponse<T> response) {
    cancelTimer();
    if (!future.complete(response)) {
      response.release();
    }
  }

  void fail(Throwable failure) {
    cancelTimer();
    future.completeExceptionally(failure);
  }

  private void cancelTimer() {
    ScheduledFuture<?> scheduled = timer;
    if (scheduled != null) {
      scheduled.cancel(false);
    }
  }
}
