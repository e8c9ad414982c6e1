package dev.cellar.cli.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** RocksDB's cache shards: at least 8 MiB each, so a filter block fits; at most 64 shards. */
class RocksDbSideTest {

  @Test
  void shardsHoldAFilterBlockAndStayAsManyAsRocksDbPicks() {
    assertEquals(0, RocksDbSide.shardBits(4L << 20));
    assertEquals(0, RocksDbSide.shardBits((16L << 20) - 1));
    assertEquals(1, RocksDbSide.shardBits(16L << 20));
    assertEquals(2, RocksDbSide.shardBits(38_600_000L), "a third of a million small rows");
    assertEquals(5, RocksDbSide.shardBits(325L << 20));
    assertEquals(6, RocksDbSide.shardBits(3L << 30), "RocksDB's own ceiling");
  }
}
