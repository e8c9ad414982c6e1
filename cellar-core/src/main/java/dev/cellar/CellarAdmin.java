package dev.cellar;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@link Admin} for one {@link Cellar}. Table creation and removal are serialized on this object;
 * flushes and compactions run on the calling thread.
 */
final class CellarAdmin implements Admin {

  private final Cellar cellar;

  CellarAdmin(Cellar cellar) {
    this.cellar = cellar;
  }

  @Override
  public synchronized void createTable(TableDescriptor descriptor) throws IOException {
    if (cellar.tables().containsKey(descriptor.name())) {
      throw new IllegalArgumentException("table " + descriptor.name() + " already exists");
    }
    long createdAt = cellar.wal().lastSequenceId();
    Path directory = cellar.tableDirectory(descriptor.name());
    if (cellar.storage().isDirectory(directory)) {
      TableDirectory.clearLeftover(cellar.storage(), directory);
    }
    TableDirectory.write(cellar.storage(), directory, descriptor, createdAt);
    cellar.openTable(descriptor, createdAt);
  }

  @Override
  public List<String> listTables() {
    return cellar.tables().keySet().stream().sorted().toList();
  }

  @Override
  public TableDescriptor describe(String table) {
    return table(table).descriptor();
  }

  @Override
  public boolean tableExists(String table) {
    return cellar.tables().containsKey(TableNames.lookupKey(table));
  }

  @Override
  public synchronized void dropTable(String name) throws IOException {
    CellarTable table = table(name);
    String key = table.name();
    Path directory = cellar.tableDirectory(key);
    cellar.tables().remove(key);
    table.region().abort();
    TableDirectory.remove(cellar.storage(), directory);
    cellar.wal().markFlushed(key, cellar.wal().lastSequenceId());
  }

  @Override
  public void flush(String table) throws IOException {
    table(table).region().flush();
  }

  @Override
  public void compact(String table) throws IOException {
    table(table).region().compact(false);
  }

  @Override
  public void majorCompact(String table) throws IOException {
    table(table).region().compact(true);
  }

  private CellarTable table(String name) {
    CellarTable table = cellar.tables().get(TableNames.lookupKey(name));
    if (table == null) {
      throw new TableNotFoundException(name);
    }
    return table;
  }
}
