package dev.cellar.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * The Buf contract for composite buffers over many off-heap segments of uneven sizes (1, 2, 3, 5, 7
 * ... bytes), so that primitives straddle boundaries in every possible way and lookups take the
 * binary-search path.
 */
class UnevenCompositeBufTest extends BufContractTest {

  private static final int[] SIZES = {1, 2, 3, 5, 7, 11, 13, 64};

  private final Arena arena = Arena.ofShared();

  @Override
  protected Buf create(int capacity) {
    List<MemorySegment> segments = new ArrayList<>();
    int remaining = capacity;
    for (int i = 0; remaining > 0; i++) {
      int size = Math.min(remaining, SIZES[i % SIZES.length]);
      segments.add(arena.allocate(size));
      remaining -= size;
    }
    if (segments.size() == 1) {
      segments.add(arena.allocate(0));
    }
    return Buf.wrap(segments.toArray(MemorySegment[]::new), RefCnt.unpooled());
  }

  @Override
  protected boolean singleSegment() {
    return false;
  }

  @AfterEach
  void closeArena() {
    releaseAll();
    arena.close();
  }
}
