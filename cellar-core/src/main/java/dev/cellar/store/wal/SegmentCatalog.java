package dev.cellar.store.wal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live segments of a log in sequence-id order, the last one being written, and the highest
 * flushed sequence id of each table; decides which segments are no longer needed.
 *
 * <p>A segment can go once every table with entries in it has been flushed up to that table's
 * highest id there (HBase's rule, per region): its entries are all in store files. The segment
 * being written never goes, so the log always keeps the file whose name records the next ids.
 *
 * <p><b>Concurrency.</b> Every method is {@code synchronized} and short, with no I/O: the sync
 * thread records each written batch and each force, any thread marks flushes or takes a snapshot
 * for a replay.
 */
final class SegmentCatalog {

  /** A segment as a replay reads it: its path, first id, and the bytes durable when asked. */
  record ReadableSegment(Path path, long firstSequenceId, long length) {}

  private final List<Segment> segments;
  private final Map<String, Long> flushed = new HashMap<>();

  /** Starts with the segments recovered from disk, in id order. */
  SegmentCatalog(List<Segment> recovered) {
    this.segments = new ArrayList<>(recovered);
  }

  /** Adds a new segment, which becomes the one being written. */
  synchronized void add(Segment segment) {
    segments.add(segment);
  }

  /** Records the entries of a batch written to {@code segment}. */
  synchronized void recordWritten(Segment segment, List<PendingEntry> batch) {
    for (PendingEntry entry : batch) {
      segment.recordEntry(entry.table(), entry.sequenceId());
    }
  }

  /** Records that the first {@code length} bytes of {@code segment} are on stable storage. */
  synchronized void recordDurable(Segment segment, long length) {
    segment.readableLength(length);
  }

  /**
   * Records that {@code table} is flushed up to {@code sequenceId}, then removes and returns every
   * segment that is no longer needed (never the one being written); the caller deletes their files.
   */
  synchronized List<Segment> markFlushed(String table, long sequenceId) {
    flushed.merge(table, sequenceId, Math::max);
    List<Segment> unneeded = new ArrayList<>();
    for (Segment segment : segments.subList(0, segments.size() - 1)) {
      if (segment.isFlushed(flushed)) {
        unneeded.add(segment);
      }
    }
    segments.removeAll(unneeded);
    return unneeded;
  }

  /** Returns the segments to replay, with the bytes of each that are durable now. */
  synchronized List<ReadableSegment> readableSegments() {
    List<ReadableSegment> readable = new ArrayList<>(segments.size());
    for (Segment segment : segments) {
      readable.add(
          new ReadableSegment(segment.path(), segment.firstSequenceId(), segment.readableLength()));
    }
    return readable;
  }

  /** Returns the paths of the live segments, oldest first. */
  synchronized List<Path> paths() {
    List<Path> paths = new ArrayList<>(segments.size());
    for (Segment segment : segments) {
      paths.add(segment.path());
    }
    return paths;
  }
}
