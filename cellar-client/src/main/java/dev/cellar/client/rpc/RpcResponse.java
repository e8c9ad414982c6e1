package dev.cellar.client.rpc;

import io.netty.buffer.ByteBuf;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * A successful call's answer: its message and its cell block, a slice of the received frame in a
 * pooled buffer (null when there are no cells). Whoever receives the response owns the cell block's
 * reference and releases it (see {@link #release()}), typically once the cells were decoded into
 * results that took references of their own.
 */
public record RpcResponse<T extends Message>(T message, ByteBuf cells) {

  /** Drops the cell block's reference, if any. */
  public void release() {
    if (cells != null) {
      cells.release();
    }
  }
}
