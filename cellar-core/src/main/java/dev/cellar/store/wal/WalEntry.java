package dev.cellar.store.wal;

import dev.cellar.cell.Cell;
import java.util.List;

/**
 * One entry replayed from the log: the table it was appended for, the sequence id it was given and
 * its cells, each reporting that sequence id.
 *
 * <p>The cells are views ({@link dev.cellar.cell.KeyValueCell}) into a heap buffer the reader
 * filled and never writes again, so they stay readable as long as they are reachable; but that
 * buffer holds neighbouring entries too. Copy what you keep ({@link
 * dev.cellar.cell.KeyValue#copyOf}) rather than holding the views.
 *
 * @param table the table (or region) name the entry was appended for
 * @param sequenceId the entry's sequence id
 * @param cells the entry's cells, in append order; never empty
 */
public record WalEntry(String table, long sequenceId, List<Cell> cells) {

  public WalEntry {
    cells = List.copyOf(cells);
  }
}
