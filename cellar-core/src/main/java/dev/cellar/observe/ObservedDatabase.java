package dev.cellar.observe;

import dev.cellar.cache.BlockCache;
import dev.cellar.cache.MissRatioCurveTracker;
import dev.cellar.memory.BufAllocator;
import dev.cellar.metrics.EngineMetrics;
import dev.cellar.store.Region;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.wal.WriteAheadLog;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * What the metric sources and the info server read of one open database: its metrics, its
 * process-wide parts and its tables as they are now.
 *
 * @param serverName the name the sources publish (HBase's serverName: host,port,start code)
 * @param startMillis when the database opened (HBase's regionServerStartTime)
 * @param directory the database directory, for the UI
 * @param cache the block cache, or null when disabled
 * @param curve the block cache's miss-ratio curve, or null when there is none
 * @param chunkPool the MemStore chunk pool, or null when the MSLAB is off
 * @param regions the open tables' regions at the moment of the call
 */
public record ObservedDatabase(
    String serverName,
    long startMillis,
    String directory,
    EngineMetrics metrics,
    BlockCache cache,
    MissRatioCurveTracker curve,
    BufAllocator allocator,
    ChunkPool chunkPool,
    WriteAheadLog wal,
    Supplier<Collection<Region>> regions) {}
