package dev.cellar.store.wal;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the tables' files say about the log, for deciding whether damage to it loses anything: each
 * table's floor (every family of it is flushed at least up to that log id, or the table was created
 * after it, so no entry of it at or below the floor is needed) and the highest id any family is
 * flushed up to (the log was durable at least that far). Known only to an open that has read every
 * table's manifest; {@link #UNKNOWN} otherwise, and then every damage the log cannot explain by a
 * crash fails the open.
 *
 * @param floors each table's floor, by table name
 * @param highestFlushed the highest flushed id of any family, 0 if none
 * @param known whether the floors cover every table of the database
 */
public record RecoveryBounds(Map<String, Long> floors, long highestFlushed, boolean known) {

  /** Nothing known of the tables. */
  public static final RecoveryBounds UNKNOWN = new RecoveryBounds(Map.of(), 0, false);

  public RecoveryBounds {
    floors = Map.copyOf(floors);
  }

  /** The bounds of a database whose tables have these floors and highest flushed id. */
  public static RecoveryBounds of(Map<String, Long> floors, long highestFlushed) {
    return new RecoveryBounds(floors, highestFlushed, true);
  }

  /**
   * The tables whose edits with ids up to {@code lostTo} may be needed (their floor is below it),
   * sorted; every table when nothing is known.
   */
  List<String> tablesNeeding(long lostTo) {
    TreeMap<String, Long> sorted = new TreeMap<>(floors);
    return sorted.entrySet().stream()
        .filter(table -> table.getValue() < lostTo)
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Whether losing the ids up to {@code lostTo} loses no edit a table needs. */
  boolean harmless(long lostTo) {
    return known && tablesNeeding(lostTo).isEmpty();
  }
}
