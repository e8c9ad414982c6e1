package dev.cellar;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Admin} for one {@link Cellar}. Table creation, removal and alters are serialized on this
 * object; flushes and compactions run on the calling thread. An alter writes the table's new
 * descriptor ({@link TableDirectory#write}, atomic) at the point the region asks for it (see {@link
 * dev.cellar.store.Region#addFamily} and its siblings for the order and why).
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
      if (TableDirectory.holdsData(cellar.storage(), directory)) {
        throw new IOException(
            "cannot create table "
                + descriptor.name()
                + ": its directory "
                + cellar.storage().describe(directory)
                + " exists and holds data that is no table's"
                + " (move it away first); nothing was changed");
      }
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
  public synchronized void addFamily(String name, ColumnFamilyDescriptor family)
      throws IOException {
    CellarTable table = table(name);
    if (table.descriptor().family(family.name()) != null) {
      throw new IllegalArgumentException(
          "table " + table.name() + " has family " + family.name() + " already");
    }
    List<ColumnFamilyDescriptor> families = new ArrayList<>(table.descriptor().families());
    families.add(family);
    TableDescriptor changed = new TableDescriptor(table.name(), families);
    table.region().addFamily(Cellar.settingsOf(family), () -> record(table, changed));
  }

  @Override
  public synchronized void deleteFamily(String name, String family) throws IOException {
    CellarTable table = table(name);
    List<ColumnFamilyDescriptor> families = new ArrayList<>(table.descriptor().families());
    if (!families.removeIf(existing -> existing.name().equals(family))) {
      throw new IllegalArgumentException(
          "table "
              + table.name()
              + " has no family "
              + family
              + "; families: "
              + table.region().familyNames());
    }
    if (families.isEmpty()) {
      throw new IllegalArgumentException(
          "family "
              + family
              + " is the only family of table "
              + table.name()
              + "; a table needs at least one");
    }
    TableDescriptor changed = new TableDescriptor(table.name(), families);
    table.region().deleteFamily(family, () -> record(table, changed));
  }

  @Override
  public synchronized void modifyFamily(String name, ColumnFamilyDescriptor family)
      throws IOException {
    CellarTable table = table(name);
    List<ColumnFamilyDescriptor> families = new ArrayList<>(table.descriptor().families());
    if (!families.removeIf(existing -> existing.name().equals(family.name()))) {
      throw new IllegalArgumentException(
          "table "
              + table.name()
              + " has no family "
              + family.name()
              + "; families: "
              + table.region().familyNames());
    }
    families.add(family);
    TableDescriptor changed = new TableDescriptor(table.name(), families);
    table.region().modifyFamily(Cellar.settingsOf(family), () -> record(table, changed));
  }

  @Override
  public synchronized void modifyTable(TableDescriptor descriptor) throws IOException {
    CellarTable table = table(descriptor.name());
    TableDescriptor current = table.descriptor();
    for (ColumnFamilyDescriptor family : descriptor.families()) {
      ColumnFamilyDescriptor existing = current.family(family.name());
      if (existing == null) {
        addFamily(table.name(), family);
      } else if (!existing.equals(family)) {
        modifyFamily(table.name(), family);
      }
    }
    for (ColumnFamilyDescriptor family : current.families()) {
      if (descriptor.family(family.name()) == null) {
        deleteFamily(table.name(), family.name());
      }
    }
  }

  /** Writes {@code changed} as the table's descriptor, durably, and hands it to the table. */
  private void record(CellarTable table, TableDescriptor changed) throws IOException {
    TableDirectory.write(
        cellar.storage(), cellar.tableDirectory(table.name()), changed, table.createdAtWalId());
    table.described(changed);
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
