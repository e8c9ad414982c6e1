package dev.cellar.hfile.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class BloomFilterChunkTest {

  /** Folding keeps every added key: its bits move to positions the smaller probe looks at. */
  @Property(tries = 300)
  void foldingNeverLosesAKey(
      @ForAll @Size(min = 1, max = 200) List<byte[]> keys,
      @ForAll @IntRange(min = 16, max = 4096) int hint,
      @ForAll @IntRange(min = 0, max = 9) int maxFold,
      @ForAll HashType hashType) {
    BloomFilterChunk chunk =
        new BloomFilterChunk(ChunkSizing.forHint(hint, maxFold, 0.01), hashType);
    for (byte[] key : keys) {
      chunk.add(key, 0, key.length);
    }
    int before = chunk.byteSize();
    chunk.fold();
    assertTrue(chunk.byteSize() <= before);
    for (byte[] key : keys) {
      assertTrue(chunk.contains(key, 0, key.length));
    }
  }

  @Test
  void foldingOrsTheSlicesIntoTheFirst() {
    BloomFilterChunk chunk = new BloomFilterChunk(new ChunkSizing(8, 1, 8), HashType.MURMUR);
    byte[] key = {1, 2, 3};
    chunk.add(key, 0, key.length);
    byte[] bits = chunk.toByteArray();
    byte[] expected = new byte[2];
    for (int i = 0; i < bits.length; i++) {
      expected[i % 2] |= bits[i];
    }
    chunk.fold();
    assertEquals(2, chunk.byteSize());
    assertEquals(2, chunk.maxKeys());
    assertArrayEquals(expected, chunk.toByteArray());
  }

  @Test
  void oddSizesAndEmptyChunksDoNotFold() {
    BloomFilterChunk odd = new BloomFilterChunk(new ChunkSizing(9, 2, 100), HashType.JENKINS);
    odd.add(new byte[] {1}, 0, 1);
    odd.fold();
    assertEquals(9, odd.byteSize());
    BloomFilterChunk empty = new BloomFilterChunk(new ChunkSizing(64, 2, 100), HashType.JENKINS);
    empty.fold();
    assertEquals(64, empty.byteSize());
    assertEquals(100, empty.maxKeys());
  }

  @Test
  void foldableByteSizeRoundsUpToTheFoldUnit() {
    assertEquals(128, ChunkSizing.foldableByteSize(8, 7));
    assertEquals(128, ChunkSizing.foldableByteSize(1024, 7));
    assertEquals(256, ChunkSizing.foldableByteSize(1025, 7));
    assertEquals(3, ChunkSizing.foldableByteSize(17, 0));
  }
}
