package dev.cellar.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Key equality, and how keys of one file spread over a hash table. */
class BlockCacheKeyTest {

  @Test
  void equalityIsFileAndOffset() {
    BlockCacheKey key = new BlockCacheKey("key-test-a", 4096);
    assertEquals(key, new BlockCacheKey("key-test-a", 4096, BlockCategory.DATA));
    assertEquals(key.hashCode(), new BlockCacheKey("key-test-a", 4096).hashCode());
    assertNotEquals(key, new BlockCacheKey("key-test-a", 4097));
    assertNotEquals(key, new BlockCacheKey("key-test-b", 4096));
  }

  /**
   * 2,000 blocks of one file at a regular stride, in the 4,096 buckets a ConcurrentHashMap of that
   * many entries has: like random keys, they must fill most buckets (a random hash fills about 78%
   * of the buckets 2,000 keys could fill at most).
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 4096, 4129, 65536, 65569, 65581, 66000, 131072})
  void blocksAtARegularStrideSpreadOverAHashTable(long stride) {
    int keys = 2000;
    int buckets = 4096;
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < keys; i++) {
      int hash = new BlockCacheKey("stride-" + stride, i * stride).hashCode();
      used.add((hash ^ (hash >>> 16)) & (buckets - 1));
    }
    assertTrue(
        used.size() > keys * 0.7,
        "stride " + stride + ": " + keys + " keys in " + used.size() + " buckets");
  }
}
