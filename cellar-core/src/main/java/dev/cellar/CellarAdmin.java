package dev.cellar;

import dev.cellar.store.FamilySettings;
import dev.cellar.store.Region;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
  public void createTable(TableDescriptor descriptor) throws IOException {
    createTable(descriptor, new byte[0][]);
  }

  @Override
  public synchronized void createTable(TableDescriptor descriptor, byte[][] splitKeys)
      throws IOException {
    List<RegionInfo> regions = SplitKeys.regions(descriptor.name(), splitKeys);
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
    TableDirectory.write(cellar.storage(), directory, descriptor, createdAt, regions);
    cellar.openTable(descriptor, createdAt, regions);
  }

  @Override
  public List<RegionInfo> regions(String table) {
    return table(table).regionInfos();
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
    FamilySettings settings = Cellar.settingsOf(family);
    RegionChain.alter(
        table.regions(),
        (region, next) -> region.addFamily(settings, next),
        () -> record(table, changed));
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
              + table.regions().getFirst().familyNames());
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
    RegionChain.alter(
        table.regions(),
        (region, next) -> region.deleteFamily(family, next),
        () -> record(table, changed));
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
              + table.regions().getFirst().familyNames());
    }
    families.add(family);
    TableDescriptor changed = new TableDescriptor(table.name(), families);
    FamilySettings settings = Cellar.settingsOf(family);
    RegionChain.alter(
        table.regions(),
        (region, next) -> region.modifyFamily(settings, next),
        () -> record(table, changed));
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
        cellar.storage(),
        cellar.tableDirectory(table.name()),
        changed,
        table.createdAtWalId(),
        table.placement().rooted() ? List.of() : table.regionInfos());
    table.described(changed);
  }

  @Override
  public synchronized void dropTable(String name) throws IOException {
    CellarTable table = table(name);
    String key = table.name();
    Path directory = cellar.tableDirectory(key);
    cellar.tables().remove(key);
    table.regions().forEach(Region::abort);
    TableDirectory.remove(cellar.storage(), directory);
    long last = cellar.wal().lastSequenceId();
    for (TableRegions.Place place : table.placement().places()) {
      cellar.wal().markFlushed(place.walKey(), last);
    }
  }

  @Override
  public void flush(String table) throws IOException {
    for (Region region : table(table).regions()) {
      region.flush();
    }
  }

  @Override
  public void compact(String table) throws IOException {
    for (Region region : table(table).regions()) {
      region.compact(false);
    }
  }

  @Override
  public void majorCompact(String table) throws IOException {
    for (Region region : table(table).regions()) {
      region.compact(true);
    }
  }

  @Override
  public void flushRegion(byte[] regionName) throws IOException {
    region(regionName).flush();
  }

  @Override
  public void compactRegion(byte[] regionName, boolean major) throws IOException {
    region(regionName).compact(major);
  }

  /** The open region named {@code regionName}. */
  private Region region(byte[] regionName) {
    for (CellarTable table : cellar.tables().values()) {
      List<RegionInfo> infos = table.regionInfos();
      for (int i = 0; i < infos.size(); i++) {
        if (Arrays.equals(infos.get(i).regionName(), regionName)) {
          return table.regions().get(i);
        }
      }
    }
    throw new IllegalArgumentException(
        "no region is named " + dev.cellar.cell.Bytes.toStringBinary(regionName));
  }

  private CellarTable table(String name) {
    CellarTable table = cellar.tables().get(TableNames.lookupKey(name));
    if (table == null) {
      throw new TableNotFoundException(name);
    }
    return table;
  }
}
