package dev.cellar.store.memstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemStoreConfigTest {

  private static final long GIB = 1L << 30;

  @Test
  void defaultsAreHBases() {
    MemStoreConfig config = MemStoreConfig.from(Settings.empty(), GIB);
    assertTrue(config.mslabEnabled());
    assertEquals(2 * 1024 * 1024, config.chunkSize());
    assertEquals(256 * 1024, config.maxAllocation());
    assertEquals(128L * 1024 * 1024, config.flushSize());
    // 0.4 of the heap is the global memstore size, the whole of which (maxsize 1.0) may be pooled.
    assertEquals((int) (0.4 * GIB / (2 * 1024 * 1024)), config.poolMaxCount());
    assertEquals(204, config.poolMaxCount());
    assertEquals(0, config.poolInitialCount());
  }

  @Test
  void poolIsAShareOfTheGlobalMemStoreSize() {
    MemStoreConfig config =
        MemStoreConfig.from(
            Settings.of(
                Map.of(
                    MemStoreConfig.GLOBAL_MEMSTORE_SIZE_KEY, "0.25",
                    MemStoreConfig.CHUNK_POOL_MAXSIZE_KEY, "0.5",
                    MemStoreConfig.CHUNK_POOL_INITIALSIZE_KEY, "0.25",
                    MemStoreConfig.CHUNK_SIZE_KEY, "1048576")),
            4 * GIB);
    assertEquals(512, config.poolMaxCount(), "4 GiB x 0.25 x 0.5 / 1 MiB");
    assertEquals(128, config.poolInitialCount(), "a quarter of the maximum");
  }

  @Test
  void theOffHeapGlobalSizeWinsOverTheHeapFraction() {
    MemStoreConfig config =
        MemStoreConfig.from(
            Settings.of(Map.of(MemStoreConfig.OFFHEAP_GLOBAL_MEMSTORE_SIZE_KEY, "512")), GIB);
    assertEquals(256, config.poolMaxCount(), "512 MiB of 2 MiB chunks");
  }

  @Test
  void noPoolWithMaxSizeZeroOrWithoutTheMslab() {
    assertEquals(
        0,
        MemStoreConfig.from(Settings.of(Map.of(MemStoreConfig.CHUNK_POOL_MAXSIZE_KEY, "0")), GIB)
            .poolMaxCount());
    MemStoreConfig disabled =
        MemStoreConfig.from(Settings.of(Map.of(MemStoreConfig.MSLAB_ENABLED_KEY, "false")), GIB);
    assertFalse(disabled.mslabEnabled());
    assertEquals(0, disabled.poolMaxCount());
  }

  @Test
  void invalidValuesNameTheirKey() {
    assertRejected(MemStoreConfig.CHUNK_POOL_MAXSIZE_KEY, "1.5");
    assertRejected(MemStoreConfig.CHUNK_POOL_INITIALSIZE_KEY, "-0.1");
    assertRejected(MemStoreConfig.GLOBAL_MEMSTORE_SIZE_KEY, "0.9");
    assertRejected(MemStoreConfig.GLOBAL_MEMSTORE_SIZE_KEY, "0");
    assertRejected(MemStoreConfig.CHUNK_SIZE_KEY, "0");
    assertRejected(MemStoreConfig.MAX_ALLOCATION_KEY, String.valueOf(4 * 1024 * 1024));
    assertRejected(MemStoreConfig.FLUSH_SIZE_KEY, "0");
  }

  private static void assertRejected(String key, String value) {
    InvalidConfigException e =
        assertThrows(
            InvalidConfigException.class,
            () -> MemStoreConfig.from(Settings.of(Map.of(key, value)), GIB));
    assertEquals(key, e.key());
    assertTrue(e.getMessage().contains(value), e.getMessage());
  }
}
