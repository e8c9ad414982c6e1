package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.AfterEach;

/**
 * The Buf contract for composite buffers from a pool of small buffers: several pooled pieces plus a
 * heap tail, so reads cross both pooled/pooled and pooled/heap boundaries.
 */
class PooledCompositeBufTest extends BufContractTest {

  private final BufAllocator allocator =
      new BufAllocator(new BufAllocatorConfig(true, 24, 4096, 5));

  @Override
  protected Buf create(int capacity) {
    int padded = Math.max(capacity, 25);
    Buf buf = allocator.allocate(padded);
    return padded == capacity ? buf : new SizedView(buf, capacity).view();
  }

  @Override
  protected boolean singleSegment() {
    return false;
  }

  @AfterEach
  void closeAllocator() {
    releaseAll();
    allocator.close();
  }

  /** A composite view of the first bytes of a larger composite buffer, sharing its count. */
  private record SizedView(Buf buf, int capacity) {
    Buf view() {
      Buf view = buf.slice(0, capacity);
      assertFalse(view.isSingleSegment());
      return view;
    }
  }
}
