package dev.cellar.server.catalog;

import dev.cellar.Cellar;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.TableDescriptor;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.LostAndFound;
import dev.cellar.io.Storage;
import dev.cellar.server.rpc.RpcException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.ColumnFamilySchema;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NamespaceDescriptor;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableSchema;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableState;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's view of the tables and their namespaces: each table's HBase schema (kept verbatim,
 * as clients compare what they get back with what they sent), whether it is enabled, and its
 * regions' ids and names; the namespaces ({@link Namespaces}). The tables' data is the embedded
 * database's; this adds what HBase clients need on top, and HBase's rules between the two: a table
 * is created in an existing namespace, and only an empty namespace that is not built in is deleted.
 * A table the database keeps whole is served as one region named by the catalog's region id; a
 * table created pre-split as the database's regions, with their names and ids ({@link Entry}).
 *
 * <p><b>On disk</b>, under the server's directory: one file per table in {@code
 * tables/<table>.table} ({@code tables/<namespace>=<qualifier>.table} outside the default
 * namespace, as '=' is in no table name and ':' is refused by some file systems): the
 * varint-delimited {@code TableSchema}, {@code TableState} and {@code RegionInfo} (HBase's
 * messages) with a checksum trailer ({@link SealedFile}), replaced atomically (written beside, then
 * renamed); the namespaces in {@code namespaces/}. The catalog is derived from the database: a
 * damaged file is set aside in the server directory's {@code lost/<time>/} and the table's entry
 * made again from its descriptor, with a warning naming what is not kept. At open, a table of the
 * database without a file (created through the embedded API) gets one from its descriptor, and its
 * namespace is made if missing; a file whose table is gone is removed, and a schema whose families
 * disagree with the table's (a crash between an alter and the write of the schema) is made to
 * agree.
 *
 * <p><b>Concurrency.</b> Changes are serialized on this object and publish a new immutable snapshot
 * of both maps through volatile fields, which lookups read without locking.
 */
public final class Catalog {

  private static final Logger LOG = LoggerFactory.getLogger(Catalog.class);

  /**
   * One table as clients see it.
   *
   * @param regionId the id of the table's region as the catalog created it, which names the one
   *     region of a table the database keeps whole (so that the name clients cached outlives a
   *     restart)
   * @param regions the regions served, in key order: that one region, or the database's regions of
   *     a table created pre-split, with the database's ids
   */
  public record Entry(
      String name, TableSchema schema, boolean enabled, long regionId, List<ServedRegion> regions) {

    public Entry {
      regions = List.copyOf(regions);
    }

    Entry withEnabled(boolean value) {
      return new Entry(name, schema, value, regionId, regions);
    }

    Entry withSchema(TableSchema changed) {
      return new Entry(name, changed, enabled, regionId, regions);
    }

    /** The name of the table's first region (its only one, unless created pre-split). */
    public byte[] regionName() {
      return regions.getFirst().name();
    }

    /** The region the catalog file records: the catalog's id, whole-table keys. */
    HBaseProtos.RegionInfo recordedRegion() {
      return new ServedRegion(RegionNames.of(name, regionId), regionId, new byte[0], new byte[0])
          .regionInfo(name);
    }
  }

  /**
   * One region of a table as HBase's clients see it.
   *
   * @param name the region name ({@link RegionNames})
   * @param id the region id
   * @param startKey the first row, empty for the table's first region
   * @param endKey the row after the last, empty for the table's last region
   */
  public record ServedRegion(byte[] name, long id, byte[] startKey, byte[] endKey) {

    /** HBase's RegionInfo of this region of the table {@code table}. */
    public HBaseProtos.RegionInfo regionInfo(String table) {
      return HBaseProtos.RegionInfo.newBuilder()
          .setRegionId(id)
          .setTableName(SchemaMapping.protoName(table))
          .setStartKey(ByteString.copyFrom(startKey))
          .setEndKey(ByteString.copyFrom(endKey))
          .setOffline(false)
          .setSplit(false)
          .setReplicaId(0)
          .build();
    }
  }

  /** A region name looked up: the table and which of its regions. */
  public record Located(Entry entry, ServedRegion region) {}

  private static final String SUFFIX = ".table";
  private static final String INVALID_FAMILY_OPERATION =
      "org.apache.hadoop.hbase.InvalidFamilyOperationException";

  private final Cellar cellar;
  private final Storage storage;
  private final Path directory;
  private final Namespaces namespaces;
  private volatile Map<String, Entry> byName = Map.of();
  private volatile Map<String, Located> byRegion = Map.of();
  private long lastRegionId;

  private Catalog(Cellar cellar, Storage storage, Path directory, Namespaces namespaces) {
    this.cellar = cellar;
    this.storage = storage;
    this.directory = directory;
    this.namespaces = namespaces;
  }

  /**
   * Loads the catalog kept in {@code serverDirectory} of {@code storage} (beside the database, on
   * the same file system), reconciled with the database's tables.
   */
  public static Catalog open(Cellar cellar, Storage storage, Path serverDirectory)
      throws IOException {
    Path tables = serverDirectory.resolve("tables");
    storage.createDirectories(tables);
    try (LostAndFound lost = LostAndFound.under(storage, serverDirectory, Instant.now())) {
      Catalog catalog =
          new Catalog(
              cellar,
              storage,
              tables,
              Namespaces.open(storage, serverDirectory.resolve("namespaces"), lost));
      catalog.load(lost);
      return catalog;
    }
  }

  private synchronized void load(LostAndFound lost) throws IOException {
    Map<String, Entry> entries = new TreeMap<>();
    for (Path file : storage.list(directory)) {
      if (!file.getFileName().toString().endsWith(SUFFIX)) {
        continue;
      }
      Entry entry;
      try {
        entry = read(file);
      } catch (IOException e) {
        Path aside = lost.move(file, "damaged: " + e.getMessage());
        LOG.warn(
            "table file {} is damaged ({}); set aside as {}: the table's schema is made"
                + " again from the database's descriptor (table attributes and a disabled state are"
                + " not kept: alter or disable it again)",
            file,
            e.getMessage(),
            aside);
        continue;
      }
      if (cellar.admin().tableExists(entry.name())) {
        entry = entry(entry.name(), entry.schema(), entry.enabled(), entry.regionId());
        TableSchema schema =
            SchemaMapping.reconciled(entry.schema(), cellar.admin().describe(entry.name()));
        if (!schema.equals(entry.schema())) {
          entry = entry.withSchema(schema);
          write(entry);
        }
        entries.put(entry.name(), entry);
        lastRegionId = Math.max(lastRegionId, entry.regionId());
      } else {
        storage.deleteIfExists(file);
      }
    }
    for (String table : cellar.admin().listTables()) {
      String namespace = SchemaMapping.namespaceOf(table);
      if (namespaces.get(namespace) == null) {
        namespaces.put(Namespaces.named(namespace));
      }
      if (!entries.containsKey(table)) {
        Entry entry = newEntry(table, SchemaMapping.schema(cellar.admin().describe(table)), true);
        write(entry);
        entries.put(table, entry);
      }
    }
    publish(entries);
  }

  private Entry newEntry(String table, TableSchema schema, boolean enabled) throws IOException {
    long regionId = Math.max(System.currentTimeMillis(), lastRegionId + 1);
    lastRegionId = regionId;
    return entry(table, schema, enabled, regionId);
  }

  /**
   * The entry of the database's table {@code table}, with its regions: the one region named by the
   * catalog's {@code regionId} for a table the database keeps whole, else the database's regions.
   */
  private Entry entry(String table, TableSchema schema, boolean enabled, long regionId)
      throws IOException {
    List<dev.cellar.RegionInfo> regions = cellar.admin().regions(table);
    List<ServedRegion> served = new ArrayList<>(regions.size());
    if (regions.size() == 1 && regions.getFirst().isFirst() && regions.getFirst().isLast()) {
      served.add(
          new ServedRegion(RegionNames.of(table, regionId), regionId, new byte[0], new byte[0]));
    } else {
      for (dev.cellar.RegionInfo region : regions) {
        served.add(
            new ServedRegion(
                region.regionName(), region.regionId(), region.startKey(), region.endKey()));
      }
    }
    return new Entry(table, schema, enabled, regionId, served);
  }

  private void publish(Map<String, Entry> entries) {
    Map<String, Located> regions = new HashMap<>();
    for (Entry entry : entries.values()) {
      for (ServedRegion region : entry.regions()) {
        regions.put(key(region.name()), new Located(entry, region));
      }
    }
    byName = java.util.Collections.unmodifiableMap(new TreeMap<>(entries));
    byRegion = Map.copyOf(regions);
  }

  private static String key(byte[] regionName) {
    return new String(regionName, StandardCharsets.ISO_8859_1);
  }

  /** The tables, sorted by name. */
  public Collection<Entry> entries() {
    return byName.values();
  }

  /** The table named {@code table}, or null. */
  public Entry byName(String table) {
    return byName.get(table);
  }

  /** The table region named {@code regionName}, or null (a stale or unknown name). */
  public Located byRegionName(ByteString regionName) {
    return byRegion.get(regionName.toString(StandardCharsets.ISO_8859_1));
  }

  /**
   * Creates a table.
   *
   * @throws RpcException TableExistsException, NamespaceNotFoundException, or DoNotRetry for a bad
   *     schema
   */
  public synchronized Entry create(TableSchema schema, byte[][] splitKeys)
      throws RpcException, IOException {
    TableDescriptor descriptor = SchemaMapping.descriptor(schema);
    String namespace = SchemaMapping.namespaceOf(descriptor.name());
    if (namespaces.get(namespace) == null) {
      throw RpcException.doNotRetry(RpcException.NAMESPACE_NOT_FOUND, namespace);
    }
    if (byName.containsKey(descriptor.name()) || cellar.admin().tableExists(descriptor.name())) {
      throw RpcException.doNotRetry(RpcException.TABLE_EXISTS, descriptor.name());
    }
    try {
      cellar.admin().createTable(descriptor, splitKeys);
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry(e.getMessage());
    }
    Entry entry = newEntry(descriptor.name(), schema, true);
    write(entry);
    Map<String, Entry> entries = new TreeMap<>(byName);
    entries.put(entry.name(), entry);
    publish(entries);
    return entry;
  }

  /** Deletes a disabled table and its data. */
  public synchronized void delete(String table) throws RpcException, IOException {
    requireDisabled(table);
    cellar.admin().dropTable(table);
    storage.deleteIfExists(file(table));
    Map<String, Entry> entries = new TreeMap<>(byName);
    entries.remove(table);
    publish(entries);
  }

  /**
   * Empties a disabled table: drops and recreates it (with new regions), enabled; split where it
   * was split when {@code preserveSplits}, else one region.
   */
  public synchronized void truncate(String table, boolean preserveSplits)
      throws RpcException, IOException {
    Entry old = requireDisabled(table);
    TableDescriptor descriptor = cellar.admin().describe(table);
    List<byte[]> splitKeys = new ArrayList<>();
    if (preserveSplits) {
      for (ServedRegion region : old.regions().subList(1, old.regions().size())) {
        splitKeys.add(region.startKey());
      }
    }
    cellar.admin().dropTable(table);
    cellar.admin().createTable(descriptor, splitKeys.toArray(new byte[0][]));
    Entry entry = newEntry(table, old.schema(), true);
    write(entry);
    Map<String, Entry> entries = new TreeMap<>(byName);
    entries.put(table, entry);
    publish(entries);
  }

  /**
   * Gives a table the families of {@code schema} (HBase's {@code modifyTable}), keeping the schema
   * verbatim.
   *
   * @throws RpcException TableNotFound, or DoNotRetry for a schema Cellar cannot take
   */
  public synchronized void modifyTable(TableSchema schema) throws RpcException, IOException {
    TableDescriptor descriptor = SchemaMapping.descriptor(schema);
    Entry entry = require(descriptor.name());
    alter(() -> cellar.admin().modifyTable(descriptor));
    replace(entry.withSchema(schema));
  }

  /** Adds a family to a table (HBase's {@code addColumnFamily}). */
  public synchronized void addFamily(String table, ColumnFamilySchema family)
      throws RpcException, IOException {
    Entry entry = require(table);
    ColumnFamilyDescriptor descriptor = SchemaMapping.family(table, family);
    alter(() -> cellar.admin().addFamily(table, descriptor));
    replace(entry.withSchema(entry.schema().toBuilder().addColumnFamilies(family).build()));
  }

  /** Changes a family's attributes (HBase's {@code modifyColumnFamily}). */
  public synchronized void modifyFamily(String table, ColumnFamilySchema family)
      throws RpcException, IOException {
    Entry entry = require(table);
    ColumnFamilyDescriptor descriptor = SchemaMapping.family(table, family);
    alter(() -> cellar.admin().modifyFamily(table, descriptor));
    TableSchema.Builder schema = entry.schema().toBuilder().clearColumnFamilies();
    for (ColumnFamilySchema existing : entry.schema().getColumnFamiliesList()) {
      schema.addColumnFamilies(existing.getName().equals(family.getName()) ? family : existing);
    }
    replace(entry.withSchema(schema.build()));
  }

  /** Deletes a family and its data (HBase's {@code deleteColumnFamily}). */
  public synchronized void deleteFamily(String table, String family)
      throws RpcException, IOException {
    Entry entry = require(table);
    alter(() -> cellar.admin().deleteFamily(table, family));
    TableSchema.Builder schema = entry.schema().toBuilder().clearColumnFamilies();
    for (ColumnFamilySchema existing : entry.schema().getColumnFamiliesList()) {
      if (!existing.getName().toStringUtf8().equals(family)) {
        schema.addColumnFamilies(existing);
      }
    }
    replace(entry.withSchema(schema.build()));
  }

  private interface Alter {
    void run() throws IOException;
  }

  /** Runs an alter of the database; a family mistake is HBase's InvalidFamilyOperation. */
  private static void alter(Alter alter) throws RpcException, IOException {
    try {
      alter.run();
    } catch (IllegalArgumentException e) {
      throw RpcException.doNotRetry(INVALID_FAMILY_OPERATION, e.getMessage());
    }
  }

  private void replace(Entry changed) throws IOException {
    write(changed);
    Map<String, Entry> entries = new TreeMap<>(byName);
    entries.put(changed.name(), changed);
    publish(entries);
  }

  /**
   * Flushes every region of an enabled table.
   *
   * @throws RpcException TableNotFoundException, or TableNotEnabledException for a disabled table
   */
  public void flush(String table) throws RpcException, IOException {
    Entry entry = require(table);
    if (!entry.enabled()) {
      throw RpcException.doNotRetry(RpcException.TABLE_NOT_ENABLED, table);
    }
    cellar.admin().flush(table);
  }

  /** Marks a table disabled or enabled. */
  public synchronized void setEnabled(String table, boolean enabled)
      throws RpcException, IOException {
    Entry entry = require(table);
    if (entry.enabled() == enabled) {
      throw RpcException.doNotRetry(
          enabled ? RpcException.TABLE_NOT_DISABLED : RpcException.TABLE_NOT_ENABLED, table);
    }
    if (!enabled) {
      cellar.admin().flush(table);
    }
    Entry changed = entry.withEnabled(enabled);
    write(changed);
    Map<String, Entry> entries = new TreeMap<>(byName);
    entries.put(table, changed);
    publish(entries);
  }

  /** Every namespace, by name. */
  public Collection<NamespaceDescriptor> namespaces() {
    return namespaces.all();
  }

  /** The namespace {@code name}, or null. */
  public NamespaceDescriptor namespace(String name) {
    return namespaces.get(name);
  }

  /** The tables of namespace {@code name}, sorted by name. */
  public List<Entry> tablesIn(String name) {
    List<Entry> tables = new ArrayList<>();
    for (Entry entry : byName.values()) {
      if (SchemaMapping.namespaceOf(entry.name()).equals(name)) {
        tables.add(entry);
      }
    }
    return tables;
  }

  /**
   * Creates a namespace.
   *
   * @throws RpcException NamespaceExistException, or DoNotRetry for a name HBase refuses
   */
  public synchronized void createNamespace(NamespaceDescriptor namespace)
      throws RpcException, IOException {
    String name = namespace.getName().toStringUtf8();
    checkNamespaceName(name);
    if (namespaces.get(name) != null) {
      throw RpcException.doNotRetry(RpcException.NAMESPACE_EXISTS, name);
    }
    namespaces.put(namespace);
  }

  /** Replaces a namespace's configuration. @throws RpcException NamespaceNotFoundException */
  public synchronized void modifyNamespace(NamespaceDescriptor namespace)
      throws RpcException, IOException {
    String name = namespace.getName().toStringUtf8();
    if (namespaces.get(name) == null) {
      throw RpcException.doNotRetry(RpcException.NAMESPACE_NOT_FOUND, name);
    }
    namespaces.put(namespace);
  }

  /**
   * Deletes an empty namespace.
   *
   * @throws RpcException NamespaceNotFoundException; ConstraintException for a built-in or a
   *     non-empty namespace
   */
  public synchronized void deleteNamespace(String name) throws RpcException, IOException {
    if (namespaces.get(name) == null) {
      throw RpcException.doNotRetry(RpcException.NAMESPACE_NOT_FOUND, name);
    }
    if (Namespaces.builtIn(name)) {
      throw RpcException.doNotRetry(
          RpcException.CONSTRAINT, "Reserved namespace " + name + " cannot be removed.");
    }
    int tables = tablesIn(name).size();
    if (tables > 0) {
      throw RpcException.doNotRetry(
          RpcException.CONSTRAINT,
          "Only empty namespaces can be"
              + " removed. Namespace "
              + name
              + " has "
              + tables
              + " tables");
    }
    namespaces.remove(name);
  }

  /** HBase's rule for a namespace name: ASCII letters, digits and '_'. */
  private static void checkNamespaceName(String name) throws RpcException {
    boolean legal = !name.isEmpty();
    for (int i = 0; legal && i < name.length(); i++) {
      char c = name.charAt(i);
      legal =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
    if (!legal) {
      throw RpcException.doNotRetry(
          "Illegal character in namespace name '"
              + name
              + "': a namespace name is ASCII letters, digits and '_'");
    }
  }

  private Entry require(String table) throws RpcException {
    Entry entry = byName.get(table);
    if (entry == null) {
      throw RpcException.tableNotFound(table);
    }
    return entry;
  }

  private Entry requireDisabled(String table) throws RpcException {
    Entry entry = require(table);
    if (entry.enabled()) {
      throw RpcException.doNotRetry(RpcException.TABLE_NOT_DISABLED, table);
    }
    return entry;
  }

  private Path file(String table) {
    return directory.resolve(fileName(table) + SUFFIX);
  }

  /** A table's name as a file name: {@code namespace=qualifier} outside the default namespace. */
  private static String fileName(String table) {
    return table.replace(':', '=');
  }

  /** Writes the entry's file: varint-delimited TableSchema, TableState, RegionInfo. */
  private void write(Entry entry) throws IOException {
    Path target = file(entry.name());
    Path temporary = directory.resolve(fileName(entry.name()) + SUFFIX + ".tmp");
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    entry.schema().writeDelimitedTo(content);
    TableState.newBuilder()
        .setState(entry.enabled() ? TableState.State.ENABLED : TableState.State.DISABLED)
        .build()
        .writeDelimitedTo(content);
    entry.recordedRegion().writeDelimitedTo(content);
    byte[] bytes = SealedFile.seal(content.toByteArray());
    storage.deleteIfExists(temporary);
    try (AppendOnlyFile out = storage.create(temporary)) {
      out.append(bytes, 0, bytes.length);
      out.sync();
    }
    storage.rename(temporary, target);
    storage.syncDirectory(directory);
  }

  private Entry read(Path file) throws IOException {
    try (InputStream in =
        new ByteArrayInputStream(SealedFile.open(file, storage.readAllBytes(file)))) {
      TableSchema schema = TableSchema.parseDelimitedFrom(in);
      TableState state = TableState.parseDelimitedFrom(in);
      HBaseProtos.RegionInfo region = HBaseProtos.RegionInfo.parseDelimitedFrom(in);
      if (schema == null || state == null || region == null) {
        throw new IOException(file + ": truncated table file (expected schema, state and region)");
      }
      String table = SchemaMapping.tableName(region.getTableName());
      return new Entry(
          table,
          schema,
          state.getState() != TableState.State.DISABLED,
          region.getRegionId(),
          List.of(
              new ServedRegion(
                  RegionNames.of(table, region.getRegionId()),
                  region.getRegionId(),
                  new byte[0],
                  new byte[0])));
    } catch (org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IOException(file + ": not a table file: " + e.getMessage(), e);
    }
  }
}
