package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Which columns of one family a scan wants and how many versions of each it has returned, as
 * HBase's ExplicitColumnTracker and ScanWildcardColumnTracker together. Versions of one column come
 * newest first; several cells with the same timestamp count once (the newest write wins, the rest
 * are skipped). An expired version is returned only while the column has fewer than the minimum
 * versions.
 *
 * <p>A scan of one version without a filter answers the first version of every column with a skip
 * of the column's rest (or an expiry skip), which its scanner always carries out: such a column is
 * then not remembered, which spares a copy of its qualifier per column. Not thread-safe.
 */
final class ColumnTracker {

  private ScanSpec spec;
  private List<byte[]> qualifiers;
  private MemorySegment[] qualifierSegments;
  private int maxVersions;
  private int minVersions;
  private long oldestUnexpired;
  private int nextQualifier;
  private final CopiedBytes column = new CopiedBytes();
  private int versions;
  private long lastTimestamp;

  /** Whether the first version of a column always ends it (one version, no filter). */
  private boolean firstVersionEndsColumn;

  ColumnTracker(ScanSpec spec) {
    configure(spec, spec.oldestUnexpiredTimestamp());
  }

  /**
   * Tracks the columns of {@code newSpec} from now on, with {@code oldest} as the expiry horizon (a
   * reused tracker; the qualifiers' segments are made again only for a different spec).
   */
  void configure(ScanSpec newSpec, long oldest) {
    if (newSpec != spec) {
      spec = newSpec;
      qualifiers = newSpec.qualifiers();
      qualifierSegments = qualifiers == null ? null : new MemorySegment[qualifiers.size()];
      for (int i = 0; qualifierSegments != null && i < qualifierSegments.length; i++) {
        qualifierSegments[i] = MemorySegment.ofArray(qualifiers.get(i));
      }
    }
    maxVersions = newSpec.maxVersions();
    minVersions = newSpec.minVersions();
    firstVersionEndsColumn = maxVersions == 1 && newSpec.filter() == null;
    oldestUnexpired = oldest;
    reset();
  }

  void reset() {
    nextQualifier = 0;
    column.clear();
    versions = 0;
  }

  /**
   * Whether the scan asks for the column of {@code cell}: {@link MatchCode#INCLUDE} if so, else how
   * to skip ahead ({@link #seekHintQualifierSegment()} for a jump to the next wanted column).
   */
  MatchCode checkColumn(Cell cell) {
    if (qualifiers == null) {
      return MatchCode.INCLUDE;
    }
    while (nextQualifier < qualifierSegments.length) {
      MemorySegment wanted = qualifierSegments[nextQualifier];
      int order =
          Bytes.compare(
              cell.segment(),
              cell.qualifierOffset(),
              cell.qualifierLength(),
              wanted,
              0,
              (int) wanted.byteSize());
      if (order == 0) {
        return MatchCode.INCLUDE;
      }
      if (order < 0) {
        return MatchCode.SEEK_NEXT_USING_HINT;
      }
      nextQualifier++;
    }
    return MatchCode.SEEK_NEXT_ROW;
  }

  /** The next wanted qualifier, after {@link #checkColumn} asked to jump to it. */
  MemorySegment seekHintQualifierSegment() {
    return qualifierSegments[nextQualifier];
  }

  /**
   * Counts a surviving version of the current column: {@link MatchCode#INCLUDE} (or with a skip of
   * the column's rest once it has enough, and of the row's rest once that column is the last one
   * asked for, as HBase's ExplicitColumnTracker), {@link MatchCode#SKIP} for a repeated timestamp,
   * {@link MatchCode#SEEK_NEXT_COL} past the versions wanted or for an expired version beyond the
   * minimum.
   */
  MatchCode checkVersions(Cell cell) {
    long timestamp = cell.timestamp();
    if (firstVersionEndsColumn) {
      if (timestamp < oldestUnexpired && minVersions == 0) {
        return MatchCode.SEEK_NEXT_COL;
      }
      return lastWantedColumn()
          ? MatchCode.INCLUDE_AND_SEEK_NEXT_ROW
          : MatchCode.INCLUDE_AND_SEEK_NEXT_COL;
    }
    if (!column.matchesQualifier(cell)) {
      column.setQualifier(cell);
      versions = 0;
    } else if (timestamp == lastTimestamp) {
      return MatchCode.SKIP;
    }
    lastTimestamp = timestamp;
    if (timestamp < oldestUnexpired && versions >= minVersions) {
      return MatchCode.SEEK_NEXT_COL;
    }
    versions++;
    if (versions > maxVersions) {
      return MatchCode.SEEK_NEXT_COL;
    }
    if (versions < maxVersions) {
      return MatchCode.INCLUDE;
    }
    return lastWantedColumn()
        ? MatchCode.INCLUDE_AND_SEEK_NEXT_ROW
        : MatchCode.INCLUDE_AND_SEEK_NEXT_COL;
  }

  /** Whether the current column is the last one an explicit column list asks for. */
  private boolean lastWantedColumn() {
    return qualifiers != null && nextQualifier == qualifiers.size() - 1;
  }
}
