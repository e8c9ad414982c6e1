/**
 * The write-ahead log: {@link dev.cellar.store.wal.WriteAheadLog} appends entries of cells with
 * group commit and HBase's durabilities, rolls and deletes segment files, and replays them after a
 * crash. The on-disk format is documented on {@code SegmentWriter} and in {@code
 * docs/format/wal.md}.
 *
 * <p>This package sits below {@code dev.cellar.store}: it uses {@code config}, {@code memory},
 * {@code io} and {@code cell}, and knows nothing of memstores, HFiles or caches.
 */
package dev.cellar.store.wal;
