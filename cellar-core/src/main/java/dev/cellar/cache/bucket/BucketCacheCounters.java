package dev.cellar.cache.bucket;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters the bucket cache keeps beyond the common hit and miss statistics: reads served by engine
 * I/O and the time they took (HBase's IOHitsPerSecond and IOTimePerHit), blocks whose stored bytes
 * failed their checksum, and engine errors. {@link LongAdder}s, so recording takes no lock.
 */
final class BucketCacheCounters {

  final LongAdder ioHits = new LongAdder();
  final LongAdder ioHitNanos = new LongAdder();
  final LongAdder checksumFailures = new LongAdder();
  final LongAdder ioErrors = new LongAdder();

  void ioHit(long nanos) {
    ioHits.increment();
    ioHitNanos.add(nanos);
  }
}
