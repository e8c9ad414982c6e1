package dev.cellar.server.service;

import dev.cellar.RowReader;
import dev.cellar.Table;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Each server thread's {@link RowReader} per table, so that a get allocates no result, no pin set
 * and no leak guard: the reader reads the row into its one reused view, whose cells are copied into
 * the response before the thread's next read.
 *
 * <p><b>Memory.</b> Between gets a reader pins the few blocks its last row lies in. A reader whose
 * table was dropped (or truncated, which makes a new table) is closed by its own thread the next
 * time that thread opens a reader; {@link #close()} closes every reader once the threads that used
 * them have stopped.
 *
 * <p><b>Concurrency.</b> Readers are confined to their thread (a thread-local map); the set of all
 * readers, for the close, is concurrent.
 */
final class PointReaders implements AutoCloseable {

  private final ThreadLocal<Map<Table, RowReader>> local =
      ThreadLocal.withInitial(IdentityHashMap::new);
  private final Set<RowReader> all = ConcurrentHashMap.newKeySet();
  private final Predicate<Table> current;

  /**
   * @param current whether a table is still the database's (not dropped or replaced)
   */
  PointReaders(Predicate<Table> current) {
    this.current = current;
  }

  /** The calling thread's reader of {@code table}. */
  RowReader reader(Table table) {
    Map<Table, RowReader> readers = local.get();
    RowReader reader = readers.get(table);
    if (reader == null) {
      closeStale(readers);
      reader = table.rowReader();
      readers.put(table, reader);
      all.add(reader);
    }
    return reader;
  }

  private void closeStale(Map<Table, RowReader> readers) {
    for (Iterator<Map.Entry<Table, RowReader>> it = readers.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Table, RowReader> entry = it.next();
      if (!current.test(entry.getKey())) {
        entry.getValue().close();
        all.remove(entry.getValue());
        it.remove();
      }
    }
  }

  /** Closes every reader; the threads that used them must have stopped. */
  @Override
  public void close() {
    for (RowReader reader : all) {
      reader.close();
    }
    all.clear();
  }
}
