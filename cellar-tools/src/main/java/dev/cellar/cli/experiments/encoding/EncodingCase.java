package dev.cellar.cli.experiments.encoding;

import dev.cellar.cli.experiments.TierHitRatios;
import dev.cellar.cli.pe.RunMeasurement;

/**
 * What was measured for one DATA_BLOCK_ENCODING and COMPRESSION pair.
 *
 * @param diskBytes the table's files after loading, flushing and a major compaction
 * @param cachedBytes what the block cache held after one full scan that caches its blocks
 * @param loadMillis writing the rows, the flush and the compaction
 * @param scanUncachedMillis a full scan that does not cache blocks (files in the OS cache)
 * @param scanCachedMillis a full scan with every block already in the block cache
 * @param getsUncached random Gets that do not cache blocks (each reads and decodes its block)
 * @param getsCached random Gets with every block in the block cache
 * @param getsUncachedHits the block cache's hit ratios per tier during {@code getsUncached}
 * @param getsCachedHits the block cache's hit ratios per tier during {@code getsCached}
 */
record EncodingCase(
    String encoding,
    String compression,
    long rows,
    long diskBytes,
    long cachedBytes,
    long loadMillis,
    double scanUncachedMillis,
    double scanCachedMillis,
    RunMeasurement getsUncached,
    RunMeasurement getsCached,
    TierHitRatios getsUncachedHits,
    TierHitRatios getsCachedHits) {

  String label() {
    return encoding + "+" + compression;
  }
}
