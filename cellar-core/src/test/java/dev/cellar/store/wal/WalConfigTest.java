package dev.cellar.store.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log reads HBase's keys; the roll size they give is the one the log rolls at. */
class WalConfigTest {

  @TempDir Path directory;

  @Test
  void defaultsAreHBases() {
    assertEquals(new WalConfig(128L << 20, 1000), WalConfig.defaults());
  }

  @Test
  void keysSetTheRollSizeAndInterval() {
    WalConfig config =
        WalConfig.from(
            Settings.of(
                Map.of(
                    WalConfig.BLOCK_SIZE_KEY, "1m",
                    WalConfig.ROLL_MULTIPLIER_KEY, "0.25",
                    WalConfig.ASYNC_SYNC_INTERVAL_KEY, "50")));
    assertEquals(new WalConfig(256 << 10, 50), config);
  }

  @Test
  void badValuesNameTheirKey() {
    for (Map.Entry<String, String> bad :
        List.of(
            Map.entry(WalConfig.BLOCK_SIZE_KEY, "-1"),
            Map.entry(WalConfig.BLOCK_SIZE_KEY, "big"),
            Map.entry(WalConfig.ROLL_MULTIPLIER_KEY, "0"),
            Map.entry(WalConfig.ROLL_MULTIPLIER_KEY, "NaN"),
            Map.entry(WalConfig.ASYNC_SYNC_INTERVAL_KEY, "0"),
            Map.entry(WalConfig.ASYNC_SYNC_INTERVAL_KEY, "1s"))) {
      InvalidConfigException error =
          assertThrows(
              InvalidConfigException.class,
              () -> WalConfig.from(Settings.of(Map.ofEntries(bad))),
              bad.toString());
      assertEquals(bad.getKey(), error.key());
      assertTrue(error.getMessage().contains(bad.getValue()), error.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> new WalConfig(0, 1000));
    assertThrows(IllegalArgumentException.class, () -> new WalConfig(1, 0));
  }

  @Test
  void segmentsRollAtTheConfiguredSize() throws Exception {
    WalConfig config =
        WalConfig.from(
            Settings.of(
                Map.of(WalConfig.BLOCK_SIZE_KEY, "8k", WalConfig.ROLL_MULTIPLIER_KEY, "1")));
    Random random = new Random(9);
    try (WriteAheadLog wal = WriteAheadLog.open(directory, config)) {
      for (int i = 0; i < 100; i++) {
        wal.append("t", List.of(WalTestSupport.randomCell(random)));
      }
      List<Path> segments = wal.segments();
      assertTrue(segments.size() > 3, "segments: " + segments);
      assertEquals(segments.size() - 1, wal.stats().rolls());
      for (Path closed : segments.subList(0, segments.size() - 1)) {
        long size = Files.size(closed);
        long lastEntry = size - WalTestSupport.entryOffsets(closed).reversed().get(1);
        assertTrue(
            size >= 8192 && size - lastEntry < 8192,
            closed + ": rolled by the first lone SYNC_WAL entry that reached 8 KiB, size " + size);
      }
    }
  }
}
