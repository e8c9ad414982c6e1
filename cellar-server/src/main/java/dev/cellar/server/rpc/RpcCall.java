package dev.cellar.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * One request being answered: its call id and method, the request's cell block (if any, a retained
 * slice of the frame) and the builder of the response's cell block. A call is handled by one thread
 * at a time; {@link #close()} releases the request's block and whatever response cells were not
 * handed to the response.
 */
public final class RpcCall implements AutoCloseable {

  private final long connection;
  private final int callId;
  private final String method;
  private final int priority;
  private final int timeoutMillis;
  private final long receivedNanos;
  private final CellCodec codec;
  private ByteBuf requestCells;
  private final CellBlockBuilder cells;
  private final int requestBytes;

  /**
   * @param connection the id of the connection the call came on
   * @param timeoutMillis the client's timeout from the request header, 0 for none
   * @param receivedNanos when the request was parsed ({@link System#nanoTime()})
   * @param requestBytes the bytes of the request's frame
   */
  RpcCall(
      long connection,
      int callId,
      String method,
      int priority,
      int timeoutMillis,
      long receivedNanos,
      CellCodec codec,
      ByteBuf requestCells,
      ByteBufAllocator allocator,
      int requestBytes) {
    this.requestBytes = requestBytes;
    this.connection = connection;
    this.callId = callId;
    this.method = method;
    this.priority = priority;
    this.timeoutMillis = timeoutMillis;
    this.receivedNanos = receivedNanos;
    this.codec = codec;
    this.requestCells = requestCells;
    this.cells = new CellBlockBuilder(allocator, codec);
  }

  /**
   * The connection the call came on: a number no other connection of this process has, so that what
   * a call opens (a scanner) can be kept to its connection.
   */
  public long connection() {
    return connection;
  }

  public int callId() {
    return callId;
  }

  public String method() {
    return method;
  }

  public int priority() {
    return priority;
  }

  /** The bytes of the request's frame. */
  int requestBytes() {
    return requestBytes;
  }

  /** The client's timeout for this call from its request header (ms), 0 when it gave none. */
  public int timeoutMillis() {
    return timeoutMillis;
  }

  /** When the call's frame was read ({@link System#nanoTime()}). */
  public long receivedNanos() {
    return receivedNanos;
  }

  /** The connection's codec: whether results may carry their cells in the cell block. */
  public CellCodec codec() {
    return codec;
  }

  /** A reader over the request's cell block (no cells when it has none). */
  public CellBlockReader requestCells() {
    return new CellBlockReader(requestCells);
  }

  /** Where a handler appends the cells of its answer (when {@link #codec()} uses blocks). */
  public CellBlockBuilder cells() {
    return cells;
  }

  @Override
  public void close() {
    if (requestCells != null) {
      requestCells.release();
      requestCells = null;
    }
    cells.close();
  }
}
