package dev.cellar.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Splits a connection's bytes into what {@link RpcConnectionHandler} acts on.
 *
 * <p>Wire layout read: first a 6-byte preamble, either {@code "HBas"} + version {@code 0} + auth
 * byte {@code 80} (SIMPLE) for an ordinary connection, or {@code "Regist"} for a client asking for
 * the cluster id before anything else. After an ordinary preamble, frames: {@code int32 length}
 * (big-endian) and that many bytes; the first frame is the connection header, each later one a
 * request. A frame is handed on as a retained slice of the pooled, direct cumulation buffer (no
 * copy).
 *
 * <p>What cannot be a frame ends the connection's decoding: a bad preamble, a connection header
 * above {@value #MAX_HEADER_LENGTH} bytes, a length that is negative or above the server's maximum
 * request size, or no preamble and header within {@value #HANDSHAKE_TIMEOUT_SECONDS} s of the
 * connection (a peer that connects and waits, or sends a byte at a time, holds nothing for long).
 * Those become one {@link Rejected} event, after which everything the peer sends is discarded (the
 * handler closes the channel). One instance per channel, used on its event loop only.
 */
final class RpcFrameDecoder extends ByteToMessageDecoder {

  static final int PREAMBLE_LENGTH = 6;
  static final byte[] RPC_MAGIC = "HBas".getBytes(StandardCharsets.US_ASCII);
  static final byte[] REGISTRY_PREAMBLE = "Regist".getBytes(StandardCharsets.US_ASCII);
  static final byte RPC_VERSION = 0;
  static final byte AUTH_SIMPLE = 80;

  /** The peer asked for the cluster id with the registry preamble. */
  record RegistryPreamble() {}

  /** The stream cannot go on; {@code reason} says why (for the error response and the log). */
  record Rejected(RpcException reason) {}

  private enum State {
    PREAMBLE,
    FRAMES,
    DISCARD
  }

  /** The largest connection header taken: HBase's are a few hundred bytes. */
  static final int MAX_HEADER_LENGTH = 64 * 1024;

  /** How long a connection has to send its preamble and connection header. */
  static final long HANDSHAKE_TIMEOUT_SECONDS = 10;

  private final int maxFrameLength;
  private final RpcMetrics metrics;
  private State state = State.PREAMBLE;

  /** Whether the connection header (the first frame) has arrived. */
  private boolean headerSeen;

  private ScheduledFuture<?> handshakeTimeout;

  /** Counts each frame's bytes, refused authentications and oversized requests in metrics. */
  RpcFrameDecoder(int maxFrameLength, RpcMetrics metrics) {
    this.maxFrameLength = maxFrameLength;
    this.metrics = metrics;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    handshakeTimeout =
        ctx.executor()
            .schedule(
                () -> {
                  if (!headerSeen && state != State.DISCARD) {
                    state = State.DISCARD;
                    ctx.fireChannelRead(
                        new Rejected(
                            RpcException.doNotRetry(
                                RpcException.FATAL_CONNECTION,
                                "no preamble and connection header within "
                                    + HANDSHAKE_TIMEOUT_SECONDS
                                    + " s")));
                  }
                },
                HANDSHAKE_TIMEOUT_SECONDS,
                TimeUnit.SECONDS);
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    handshakeTimeout.cancel(false);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    switch (state) {
      case PREAMBLE -> decodePreamble(in, out);
      case FRAMES -> decodeFrames(in, out);
      case DISCARD -> in.skipBytes(in.readableBytes());
    }
  }

  private void decodePreamble(ByteBuf in, List<Object> out) {
    if (in.readableBytes() < PREAMBLE_LENGTH) {
      return;
    }
    byte[] preamble = new byte[PREAMBLE_LENGTH];
    in.readBytes(preamble);
    if (java.util.Arrays.equals(preamble, REGISTRY_PREAMBLE)) {
      state = State.DISCARD;
      handshakeTimeout.cancel(false);
      out.add(new RegistryPreamble());
      return;
    }
    boolean magic = java.util.Arrays.equals(preamble, 0, 4, RPC_MAGIC, 0, 4);
    if (!magic || preamble[4] != RPC_VERSION || preamble[5] != AUTH_SIMPLE) {
      state = State.DISCARD;
      String why =
          !magic
              ? "Expected HEADER=HBas but received HEADER="
                  + new String(preamble, 0, 4, StandardCharsets.ISO_8859_1)
              : preamble[4] != RPC_VERSION
                  ? "version " + preamble[4] + " is not supported, expected " + RPC_VERSION
                  : "authentication method "
                      + preamble[5]
                      + " is not supported; only SIMPLE (80) is";
      if (magic && preamble[4] == RPC_VERSION) {
        metrics.authenticationFailure();
      }
      out.add(new Rejected(RpcException.doNotRetry(RpcException.FATAL_CONNECTION, why)));
      return;
    }
    state = State.FRAMES;
    decodeFrames(in, out);
  }

  private void decodeFrames(ByteBuf in, List<Object> out) {
    while (in.readableBytes() >= 4) {
      int length = in.getInt(in.readerIndex());
      if (!headerSeen && (length < 0 || length > MAX_HEADER_LENGTH)) {
        state = State.DISCARD;
        in.skipBytes(in.readableBytes());
        out.add(
            new Rejected(
                RpcException.doNotRetry(
                    RpcException.FATAL_CONNECTION,
                    "connection header of "
                        + Integer.toUnsignedString(length)
                        + " bytes exceeds the maximum of "
                        + MAX_HEADER_LENGTH)));
        return;
      }
      if (length < 0 || length > maxFrameLength) {
        state = State.DISCARD;
        in.skipBytes(in.readableBytes());
        metrics.exception(RpcException.REQUEST_TOO_BIG);
        out.add(
            new Rejected(
                RpcException.doNotRetry(
                    RpcException.REQUEST_TOO_BIG,
                    "request of "
                        + Integer.toUnsignedString(length)
                        + " bytes exceeds the maximum of "
                        + maxFrameLength
                        + " (hbase.ipc.max.request.size)")));
        return;
      }
      if (in.readableBytes() < 4 + length) {
        return;
      }
      in.skipBytes(4);
      metrics.frameReceived(length);
      out.add(in.readRetainedSlice(length));
      if (!headerSeen) {
        headerSeen = true;
        handshakeTimeout.cancel(false);
      }
    }
  }
}
