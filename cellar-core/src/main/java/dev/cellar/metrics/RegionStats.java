package dev.cellar.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one table's region holds and has served, at one moment: the figures of HBase's {@code
 * RegionLoad} (what a region server reports of each region to its master and to {@code
 * Admin.getRegionMetrics}), in bytes and counts rather than HBase's rounded MB and KB. Each figure
 * is summed over the region's stores and their files as they were when read; files are sized from
 * what was recorded when they were opened, so reading the figures does no I/O.
 *
 * @param stores the number of stores (column families)
 * @param storeFiles the number of store files
 * @param storeFileBytes the store files' bytes on disk
 * @param uncompressedBytes the store files' blocks before compression (their trailers' totals)
 * @param memStoreBytes the MemStores' data bytes (cells not yet flushed)
 * @param rootIndexBytes the bytes the files' index roots hold on the heap (HBase's root level index
 *     size)
 * @param indexBytes the bytes of the files' whole data indexes, every level, uncompressed (HBase's
 *     total static index size)
 * @param bloomBytes the bytes of the files' general bloom filters (HBase's total static bloom size)
 * @param readRequests rows read since the table was opened (0 when metrics are off)
 * @param writeRequests rows written since the table was opened (0 when metrics are off)
 * @param lastMajorCompactionMillis when the oldest file written by a major compaction was written
 *     (HBase's {@code getOldestHfileTs(true)}); 0 if no file was
 * @param flushedWalId the log id up to which every edit of the region is in its files (HBase's
 *     completed sequence id): the lowest of the families'
 * @param familyFlushedWalIds the same per family, by family name, in family order
 */
public record RegionStats(
    int stores,
    int storeFiles,
    long storeFileBytes,
    long uncompressedBytes,
    long memStoreBytes,
    long rootIndexBytes,
    long indexBytes,
    long bloomBytes,
    long readRequests,
    long writeRequests,
    long lastMajorCompactionMillis,
    long flushedWalId,
    Map<String, Long> familyFlushedWalIds) {

  public RegionStats {
    familyFlushedWalIds = Collections.unmodifiableMap(new LinkedHashMap<>(familyFlushedWalIds));
  }
}
