package dev.cellar.store.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Uses 2 MiB chunks, one per slab of the allocator underneath, so counts are exact. */
class ChunkPoolTest {

  private static final int CHUNK = MemStoreConfig.DEFAULT_CHUNK_SIZE;

  @Test
  void releasedChunksGoBackToThePoolAndAreReused() {
    try (ChunkPool pool = new ChunkPool(CHUNK, 4, 0)) {
      assertEquals(new ChunkPoolStats(CHUNK, 4, 0, 0, 0, 0), pool.stats());
      List<Chunk> chunks = take(pool, 3);
      Set<Long> addresses = addresses(chunks);
      assertEquals(new ChunkPoolStats(CHUNK, 4, 3, 0, 3, 0), pool.stats());
      chunks.forEach(Chunk::release);
      assertEquals(new ChunkPoolStats(CHUNK, 4, 3, 3, 0, 0), pool.stats());

      List<Chunk> again = take(pool, 3);
      assertEquals(addresses, addresses(again), "the same memory is handed out again");
      assertEquals(3, pool.stats().createdCount(), "nothing new was created");
      assertEquals(3, pool.stats().inUseCount());
      again.forEach(Chunk::release);
    }
  }

  @Test
  void chunksAreOffHeapAndWholeAndStartEmpty() {
    try (ChunkPool pool = new ChunkPool(CHUNK, 1, 0)) {
      Chunk chunk = pool.take();
      assertTrue(chunk.isDirect());
      assertEquals(CHUNK, chunk.segment().byteSize());
      assertEquals(0, chunk.used());
      chunk.release();
    }
  }

  @Test
  void anExhaustedPoolMakesHeapChunks() {
    try (ChunkPool pool = new ChunkPool(CHUNK, 2, 0)) {
      List<Chunk> chunks = take(pool, 3);
      assertTrue(chunks.get(0).isDirect());
      assertTrue(chunks.get(1).isDirect());
      assertFalse(chunks.get(2).isDirect());
      assertEquals(CHUNK, chunks.get(2).segment().byteSize());
      assertEquals(new ChunkPoolStats(CHUNK, 2, 2, 0, 2, 1), pool.stats());
      chunks.forEach(Chunk::release);
      assertEquals(new ChunkPoolStats(CHUNK, 2, 2, 2, 0, 1), pool.stats());
    }
  }

  @Test
  void withoutAPoolEveryChunkIsAHeapChunk() {
    try (ChunkPool pool = new ChunkPool(4096, 0, 0)) {
      Chunk chunk = pool.take();
      assertFalse(chunk.isDirect());
      chunk.release();
      assertEquals(new ChunkPoolStats(4096, 0, 0, 0, 0, 1), pool.stats());
    }
  }

  @Test
  void theInitialCountIsCreatedUpFront() {
    try (ChunkPool pool = new ChunkPool(CHUNK, 4, 2)) {
      assertEquals(new ChunkPoolStats(CHUNK, 4, 2, 2, 0, 0), pool.stats());
    }
    assertThrows(IllegalArgumentException.class, () -> new ChunkPool(CHUNK, 2, 3));
  }

  @Test
  void closingWithAChunkInUseFails() {
    ChunkPool pool = new ChunkPool(CHUNK, 2, 0);
    Chunk chunk = pool.take();
    IllegalStateException e = assertThrows(IllegalStateException.class, pool::close);
    assertTrue(e.getMessage().contains("in use"), e.getMessage());
    chunk.release();
    pool.close();
  }

  @Test
  void theConfigSizesThePool() {
    MemStoreConfig config = new MemStoreConfig(true, CHUNK, 1024, 3, 1, 1 << 20);
    try (ChunkPool pool = new ChunkPool(config)) {
      assertEquals(new ChunkPoolStats(CHUNK, 3, 1, 1, 0, 0), pool.stats());
      assertEquals(CHUNK, pool.chunkSize());
    }
  }

  private static List<Chunk> take(ChunkPool pool, int count) {
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      chunks.add(pool.take());
    }
    return chunks;
  }

  private static Set<Long> addresses(List<Chunk> chunks) {
    Set<Long> addresses = new HashSet<>();
    for (Chunk chunk : chunks) {
      addresses.add(chunk.segment().address());
    }
    return addresses;
  }
}
