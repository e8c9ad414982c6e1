package dev.cellar.server.rpc;

import dev.cellar.metrics.HistogramSnapshot;
import dev.cellar.metrics.LatencyHistogram;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the RPC server records for HBase's IPC metrics ({@link IpcSource} publishes them): bytes
 * received and sent, the size of each request and response, each call's time in the queue, in its
 * handler and in all, the bytes of the calls accepted and not yet answered, connections refused for
 * their authentication method, and failed calls by exception type.
 *
 * <p><b>Cost.</b> Every figure is a {@link LongAdder} or a {@link LatencyHistogram}: recording
 * takes no lock and allocates nothing, from the event loops and the handler threads at once. A call
 * reads the clock three times (when parsed, when its handler starts, when it ends), which is small
 * beside an RPC.
 *
 * <p>Thread-safe; one per server.
 */
public final class RpcMetrics {

  private static final RpcExceptionKind[] KINDS = RpcExceptionKind.values();

  private final LongAdder receivedBytes = new LongAdder();
  private final LongAdder sentBytes = new LongAdder();
  private final LongAdder queuedBytes = new LongAdder();
  private final LongAdder authenticationFailures = new LongAdder();
  private final LongAdder exceptions = new LongAdder();
  private final LongAdder[] exceptionsByKind = new LongAdder[KINDS.length];
  private final LatencyHistogram requestSize = new LatencyHistogram();
  private final LatencyHistogram responseSize = new LatencyHistogram();
  private final LatencyHistogram queueCallTime = new LatencyHistogram();
  private final LatencyHistogram processCallTime = new LatencyHistogram();
  private final LatencyHistogram totalCallTime = new LatencyHistogram();

  public RpcMetrics() {
    for (int i = 0; i < exceptionsByKind.length; i++) {
      exceptionsByKind[i] = new LongAdder();
    }
  }

  /** A frame of {@code length} bytes read, plus its 4-byte length (as HBase counts them). */
  void frameReceived(int length) {
    receivedBytes.add(length + 4L);
  }

  /** {@code bytes} handed to a connection to send. */
  void sent(int bytes) {
    sentBytes.add(bytes);
  }

  /** A call of a request frame of {@code bytes} accepted: it waits or runs until answered. */
  void callAccepted(int bytes) {
    queuedBytes.add(bytes);
  }

  /**
   * A call answered successfully: {@code requestBytes} in, {@code responseBytes} out, parsed at
   * {@code receivedNanos}, started at {@code startedNanos}, done at {@code doneNanos}.
   */
  void callAnswered(
      int requestBytes, int responseBytes, long receivedNanos, long startedNanos, long doneNanos) {
    requestSize.record(requestBytes);
    responseSize.record(responseBytes);
    queueCallTime.record(startedNanos - receivedNanos);
    processCallTime.record(doneNanos - startedNanos);
    totalCallTime.record(doneNanos - receivedNanos);
  }

  /** A call accepted with {@link #callAccepted} of {@code bytes} is answered or dropped. */
  void callDone(int bytes) {
    queuedBytes.add(-bytes);
  }

  /** A request answered with an exception of class {@code className}. */
  void exception(String className) {
    exceptions.increment();
    exceptionsByKind[RpcExceptionKind.of(className).ordinal()].increment();
  }

  /** A connection refused for asking an authentication method the server does not have. */
  void authenticationFailure() {
    authenticationFailures.increment();
  }

  long receivedBytes() {
    return receivedBytes.sum();
  }

  long sentBytes() {
    return sentBytes.sum();
  }

  long queuedBytes() {
    return queuedBytes.sum();
  }

  long authenticationFailures() {
    return authenticationFailures.sum();
  }

  long exceptions() {
    return exceptions.sum();
  }

  long exceptions(RpcExceptionKind kind) {
    return exceptionsByKind[kind.ordinal()].sum();
  }

  HistogramSnapshot requestSize() {
    return requestSize.snapshot();
  }

  HistogramSnapshot responseSize() {
    return responseSize.snapshot();
  }

  HistogramSnapshot queueCallTime() {
    return queueCallTime.snapshot();
  }

  HistogramSnapshot processCallTime() {
    return processCallTime.snapshot();
  }

  HistogramSnapshot totalCallTime() {
    return totalCallTime.snapshot();
  }
}
