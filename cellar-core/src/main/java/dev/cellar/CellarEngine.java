package dev.cellar;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.config.BuildVersion;
import dev.cellar.memory.BufAllocator;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.RegionStats;
import dev.cellar.observe.MetricSource;
import dev.cellar.spi.Engine;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.wal.WalStats;
import java.util.List;

/** The {@link Engine} view of one open {@link Cellar}: every call goes to the database. */
record CellarEngine(Cellar cellar) implements Engine {

  @Override
  public BlockCache blockCache() {
    return cellar.blockCache();
  }

  @Override
  public MissRatioCurveTracker missRatioCurve() {
    return cellar.missRatioCurve();
  }

  @Override
  public BufAllocator allocator() {
    return cellar.allocator();
  }

  @Override
  public ChunkPool chunkPool() {
    return cellar.chunkPool();
  }

  @Override
  public EngineMetrics metrics() {
    return cellar.metrics();
  }

  @Override
  public WalStats walStats() {
    return cellar.walStats();
  }

  @Override
  public void publish(MetricSource source) {
    cellar.publish(source);
  }

  @Override
  public void servesRpcOn(int port) {
    cellar.servesRpcOn(port);
  }

  @Override
  public List<RegionStats> regionStats(String table) {
    return cellar.regionStats(table);
  }

  @Override
  public String version() {
    return BuildVersion.read();
  }
}
