package dev.cellar.server.rpc;

import dev.cellar.row.Pins;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * A response's cell block whose parts include cached block memory: runs of copied bytes (length
 * prefixes, small cells) from pooled buffers, interleaved with buffers wrapping the pinned blocks'
 * own memory. It owns the {@link Pins} that keep those blocks alive and releases them when its last
 * reference goes, which Netty does once the frame holding it has been written to the socket, or has
 * failed to be (a connection closed mid-write): the blocks are then pinned exactly as long as the
 * bytes may still be read.
 *
 * <p>No limit on parts: a composite that reaches its limit consolidates, which would copy the
 * blocks' bytes after all. Threads as for any {@code ByteBuf}: built by one handler thread, then
 * handed to the channel's event loop.
 */
final class PinnedCellBlock extends CompositeByteBuf {

  private final Pins pins;

  PinnedCellBlock(ByteBufAllocator allocator, Pins pins) {
    super(allocator, true, Integer.MAX_VALUE);
    this.pins = pins;
  }

  @Override
  protected void deallocate() {
    try {
      super.deallocate();
    } finally {
      pins.release();
    }
  }
}
