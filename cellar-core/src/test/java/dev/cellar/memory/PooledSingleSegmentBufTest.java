package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;

/** The Buf contract for single-segment buffers from an off-heap pool. */
class PooledSingleSegmentBufTest extends BufContractTest {

  private final BufAllocator allocator =
      new BufAllocator(new BufAllocatorConfig(true, 8192, 64, 0));

  @Override
  protected Buf create(int capacity) {
    Buf buf = allocator.allocate(capacity);
    assertTrue(buf.isDirect(), "a pooled buffer of " + capacity + " bytes is off-heap");
    return buf;
  }

  @Override
  protected boolean singleSegment() {
    return true;
  }

  @AfterEach
  void closeAllocator() {
    releaseAll();
    allocator.close();
  }
}
