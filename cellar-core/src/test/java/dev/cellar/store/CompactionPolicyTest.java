package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cellar.config.InvalidConfigException;
import dev.cellar.config.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Size-ratio file selection. */
class CompactionPolicyTest {

  private static final CompactionPolicy POLICY =
      new CompactionPolicy(3, 5, 1.2, 10, Long.MAX_VALUE);

  @Test
  void tooFewFilesSelectNothing() {
    assertNull(POLICY.select(List.of(5L, 5L)));
  }

  @Test
  void smallFilesAreAllSelectedUpToTheMaximum() {
    assertArrayEquals(new int[] {0, 3}, POLICY.select(List.of(5L, 5L, 5L)));
    assertArrayEquals(new int[] {0, 5}, POLICY.select(List.of(5L, 5L, 5L, 5L, 5L, 5L, 5L)));
  }

  @Test
  void aLargeOldFileIsPassedOverUntilNewerDataOutweighsIt() {
    assertArrayEquals(new int[] {1, 4}, POLICY.select(List.of(1000L, 20L, 20L, 20L)));
    assertArrayEquals(new int[] {0, 5}, POLICY.select(List.of(100L, 30L, 30L, 30L, 30L)));
  }

  @Test
  void filesAboveTheMaximumSizeAreNeverSelected() {
    CompactionPolicy capped = new CompactionPolicy(3, 5, 1.2, 10, 500);
    assertArrayEquals(new int[] {1, 4}, capped.select(List.of(600L, 200L, 200L, 200L)));
  }

  @Test
  void settingsAreReadAndCheckedByKey() {
    CompactionPolicy policy =
        CompactionPolicy.from(
            Settings.of(
                Map.of("hbase.hstore.compaction.min", "4", "hbase.hstore.compaction.ratio", "2.0")),
            1 << 20);
    assertEquals(4, policy.minFiles());
    assertEquals(10, policy.maxFiles());
    assertEquals(2.0, policy.ratio());
    assertEquals(1 << 20, policy.minCompactSize());
    InvalidConfigException e =
        assertThrows(
            InvalidConfigException.class,
            () ->
                CompactionPolicy.from(Settings.of(Map.of("hbase.hstore.compaction.max", "2")), 1));
    assertEquals("hbase.hstore.compaction.max", e.key());
  }
}
