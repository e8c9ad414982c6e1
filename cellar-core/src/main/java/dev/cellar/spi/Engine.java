package dev.cellar.spi;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.memory.BufAllocator;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.metrics.RegionStats;
import dev.cellar.observe.MetricSource;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.wal.WalStats;
import java.util.List;

/**
 * The parts of an embedded database that Cellar's own modules reach and its public API does not
 * show: the server counts and publishes its RPC figures through them, the tools and benchmarks read
 * the cache's and the allocator's. Obtained with {@link EngineAccess#engine}; a view of one open
 * database, valid until it closes.
 */
public interface Engine {

  /** The block cache, or null when the configuration disables it. */
  BlockCache blockCache();

  /** The block cache's miss-ratio curve, or null when there is no cache or it is turned off. */
  MissRatioCurveTracker missRatioCurve();

  /** The pooled allocator blocks are read into. */
  BufAllocator allocator();

  /** The MemStore chunk pool, or null when the MSLAB is disabled. */
  ChunkPool chunkPool();

  /** The operation latencies and counters of every table, and the JVM's GC pauses. */
  EngineMetrics metrics();

  /** The write-ahead log's counters. */
  WalStats walStats();

  /**
   * Publishes {@code source} with the database's own metrics, on JMX and the info server's
   * /prometheus, until the database closes: for a server's figures (its RPC metrics).
   */
  void publish(MetricSource source);

  /** Tells the info server's web UI the port a server over the database answers RPCs on. */
  void servesRpcOn(int port);

  /**
   * The figures of each region of the table {@code table} now, in key order, as {@code
   * Admin.regions} lists them (HBase's RegionLoad: stores, files, sizes, request counts, compaction
   * and flush marks), or an empty list if the database has no such table open.
   */
  List<RegionStats> regionStats(String table);

  /**
   * The build's version, as the info server's {@code /api/server} and web UI name it ({@code
   * unknown} for a build that did not record it).
   */
  String version();
}
