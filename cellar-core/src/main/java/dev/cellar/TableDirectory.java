package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * A table's directory and its descriptor file, {@value #DESCRIPTOR}: a Java properties file with
 * the table name, the write-ahead-log id at creation (so a re-created table never replays a dropped
 * table's log entries), every family attribute as {@code family.<name>.<ATTRIBUTE>}, and {@value
 * #CHECKSUM_KEY}: the CRC32C of every other key and value ({@link #checksum}), so that a flipped
 * byte (a family's name or attribute changed) fails the read instead of being taken for the table's
 * schema. A descriptor without it (written before) is read as it is; one with a key this format
 * does not have is refused.
 *
 * <p><b>Crash safety.</b> The descriptor is what makes a directory a table. {@link #write} writes
 * it to a temporary file, forces it, renames it into place and forces the table's directory and
 * {@code tables/}, so after a crash the table exists whole or not at all; a create a crash cut
 * short leaves a directory with no descriptor and no data (at most the descriptor's temporary
 * file), which the next open clears ({@link #clearLeftover}). {@link #remove} first renames the
 * whole directory to a name no table has ({@value #DROPPED_PREFIX}{@code <name>-<nanos>}), durably,
 * then deletes it: a drop a crash cut short leaves such a directory, which the next open clears. So
 * a table directory under a table's name that has no descriptor but holds data (a manifest, store
 * files) is no leftover of Cellar's: it is damage, and the open refuses it ({@link #holdsData}).
 *
 * <p><b>Where.</b> A table of the default namespace lives in {@code tables/<qualifier>}; a table of
 * another namespace in {@code namespaces/<namespace>/<qualifier>}, one directory per namespace as
 * HBase keeps {@code data/<namespace>/<table>}, and no ':' in a path (HDFS refuses it). Databases
 * written before kept {@code namespace:qualifier} in {@code tables/}; {@link #legacy} finds such a
 * directory so that the open moves it. Stateless.
 */
final class TableDirectory {

  static final String DESCRIPTOR = ".tabledesc";
  static final String TABLES = "tables";
  static final String NAMESPACES = "namespaces";

  /** The descriptor's key holding the CRC32C of its other keys and values, in hex. */
  static final String CHECKSUM_KEY = "checksum";

  /** The start of a region's key in the descriptor. */
  private static final String REGION_PREFIX = "region.";

  /** The start of a dropped table's directory name while it is deleted; no table starts so. */
  static final String DROPPED_PREFIX = ".dropped-";

  private TableDirectory() {}

  /**
   * The directory of the table {@code name} (a checked name, without the default namespace) in the
   * database {@code database}, checked to stay where tables live whatever the name.
   *
   * @throws IllegalArgumentException if the name would resolve elsewhere
   */
  static Path of(Path database, String name) {
    int colon = name.indexOf(':');
    Path parent =
        colon < 0
            ? database.resolve(TABLES).normalize()
            : database.resolve(NAMESPACES).resolve(name.substring(0, colon)).normalize();
    Path resolved = parent.resolve(name.substring(colon + 1)).normalize();
    if (!parent.equals(resolved.getParent())
        || (colon >= 0 && !database.resolve(NAMESPACES).normalize().equals(parent.getParent()))) {
      throw new IllegalArgumentException(
          "table name '"
              + name
              + "' resolves to "
              + resolved
              + ", which is not a directory of its own under "
              + parent);
    }
    return resolved;
  }

  /**
   * Every directory where a table may be: the children of {@code tables/} and of each namespace.
   */
  static List<Path> all(Storage storage, Path database) throws IOException {
    List<Path> directories = new ArrayList<>(storage.list(database.resolve(TABLES)));
    Path namespaces = database.resolve(NAMESPACES);
    if (storage.isDirectory(namespaces)) {
      for (Path namespace : storage.list(namespaces)) {
        if (storage.isDirectory(namespace)) {
          directories.addAll(storage.list(namespace));
        }
      }
    }
    return directories;
  }

  /**
   * Whether {@code directory}, holding the table {@code name}, is where databases written before
   * namespaces had their own directories kept it: {@code tables/namespace:qualifier}.
   */
  static boolean legacy(Path database, Path directory, String name) {
    return name.indexOf(':') > 0
        && directory.normalize().equals(database.resolve(TABLES).resolve(name).normalize());
  }

  /** Moves the table in {@code from} to {@code to}, durably. */
  static void move(Storage storage, Path from, Path to) throws IOException {
    storage.createDirectories(to.getParent());
    storage.rename(from, to);
    storage.syncDirectory(to.getParent());
    storage.syncDirectory(from.getParent());
  }

  /**
   * A descriptor as stored: the table, the log id it was created at, and its regions in key order
   * (empty for a table that is one region kept in the table's directory itself, as every table was
   * before tables had regions; see {@link TableRegions}).
   */
  record Stored(TableDescriptor descriptor, long createdAtWalId, List<RegionInfo> regions) {

    Stored {
      regions = List.copyOf(regions);
    }

    /** Where each region of the table in {@code directory} lives. */
    TableRegions placed(Path directory) {
      return TableRegions.of(directory, descriptor.name(), regions);
    }
  }

  /**
   * Writes the descriptor of the table in {@code directory}, atomically.
   *
   * <p>Layout (Java properties, UTF-8 escaped): {@code name}; {@code createdAtWalId}; {@code
   * family.<family>.<ATTRIBUTE>} for every family attribute; for a table of region directories
   * ({@code regions} not empty), {@code region.<encodedName>} = {@code <regionId>,<startKey in
   * hex>} for every region, the end keys being the next region's start; {@value #CHECKSUM_KEY}.
   */
  static void write(
      Storage storage,
      Path directory,
      TableDescriptor descriptor,
      long createdAtWalId,
      List<RegionInfo> regions)
      throws IOException {
    storage.createDirectories(directory);
    Properties properties = new Properties();
    properties.setProperty("name", descriptor.name());
    properties.setProperty("createdAtWalId", Long.toString(createdAtWalId));
    for (RegionInfo region : regions) {
      properties.setProperty(
          REGION_PREFIX + region.encodedName(),
          region.regionId() + "," + HexFormat.of().formatHex(region.startKey()));
    }
    for (ColumnFamilyDescriptor family : descriptor.families()) {
      family
          .attributes()
          .forEach(
              (key, value) -> properties.setProperty("family." + family.name() + "." + key, value));
    }
    properties.setProperty(CHECKSUM_KEY, checksum(properties));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    properties.store(bytes, "Cellar table descriptor");
    Path temporary = directory.resolve(DESCRIPTOR + ".tmp");
    storage.deleteIfExists(temporary);
    try (AppendOnlyFile out = storage.create(temporary)) {
      out.append(bytes.toByteArray(), 0, bytes.size());
      out.sync();
    }
    storage.rename(temporary, directory.resolve(DESCRIPTOR));
    storage.syncDirectory(directory);
    storage.syncDirectory(directory.getParent());
  }

  /**
   * Deletes the table in {@code directory}: renames it to a dropped name, durably (from then on it
   * is no table), then deletes everything in it.
   */
  static void remove(Storage storage, Path directory) throws IOException {
    Path dropped =
        directory.resolveSibling(
            DROPPED_PREFIX + directory.getFileName() + "-" + System.nanoTime());
    storage.rename(directory, dropped);
    storage.syncDirectory(directory.getParent());
    clearLeftover(storage, dropped);
  }

  /** Whether {@code directory} is a dropped table's, being deleted when a crash stopped it. */
  static boolean dropped(Path directory) {
    return directory.getFileName().toString().startsWith(DROPPED_PREFIX);
  }

  /**
   * Whether {@code directory}, a table directory without a descriptor, holds anything a create cut
   * short does not leave: a file other than the descriptor's temporary one, or a directory that is
   * not empty.
   */
  static boolean holdsData(Storage storage, Path directory) throws IOException {
    for (Path child : storage.list(directory)) {
      if (storage.isDirectory(child)
          ? !storage.list(child).isEmpty()
          : !child.getFileName().toString().equals(DESCRIPTOR + ".tmp")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Deletes {@code directory}, a table directory without a descriptor (left by a create or a drop
   * that a crash interrupted), with everything in it, and forces {@code tables/}.
   */
  static void clearLeftover(Storage storage, Path directory) throws IOException {
    deleteTree(storage, directory);
    storage.syncDirectory(directory.getParent());
  }

  private static void deleteTree(Storage storage, Path path) throws IOException {
    if (storage.isDirectory(path)) {
      for (Path child : storage.list(path)) {
        deleteTree(storage, child);
      }
    }
    storage.deleteIfExists(path);
  }

  /**
   * The CRC32C, in hex, of every key and value of {@code properties} but {@value #CHECKSUM_KEY}, in
   * key order, each as its UTF-8 bytes followed by a zero byte.
   */
  static String checksum(Properties properties) {
    CRC32C crc = new CRC32C();
    for (String key : new TreeMap<>(properties).keySet().stream().map(Object::toString).toList()) {
      if (!key.equals(CHECKSUM_KEY)) {
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        crc.update(0);
        crc.update(properties.getProperty(key).getBytes(StandardCharsets.UTF_8));
        crc.update(0);
      }
    }
    return Long.toHexString(crc.getValue());
  }

  static Stored read(Storage storage, Path directory) throws IOException {
    Path file = directory.resolve(DESCRIPTOR);
    Properties properties = parse(storage, file);
    String stored = properties.getProperty(CHECKSUM_KEY);
    if (stored != null && !stored.equals(checksum(properties))) {
      throw new IOException(
          storage.describe(file)
              + ": checksum mismatch (expected "
              + stored
              + " as stored, found "
              + checksum(properties)
              + " computed): the descriptor is"
              + " damaged");
    }
    for (String key : properties.stringPropertyNames()) {
      if (!key.equals("name")
          && !key.equals("createdAtWalId")
          && !key.equals(CHECKSUM_KEY)
          && !key.startsWith(REGION_PREFIX)
          && !(key.startsWith("family.") && key.indexOf('.', "family.".length()) > 0)) {
        throw new IOException(
            storage.describe(file)
                + ": unknown key '"
                + key
                + "': the"
                + " descriptor is damaged or not Cellar's");
      }
    }
    return described(file, properties);
  }

  /**
   * The descriptor in {@code directory} read as well as it can be, its checksum and unknown keys
   * ignored: for a repair that must rebuild a damaged one.
   */
  static Stored readLeniently(Storage storage, Path directory) throws IOException {
    Path file = directory.resolve(DESCRIPTOR);
    return described(file, parse(storage, file));
  }

  /**
   * A descriptor made from {@code directory} alone: the table's name from its path ({@code
   * tables/<name>}, {@code namespaces/<namespace>/<name>}), its regions from the region
   * directories' {@value RegionInfoFile#NAME} files (none: one region in the table's directory),
   * one family of default attributes per family directory holding a file, created at log id 0: for
   * a repair whose descriptor is lost.
   *
   * @throws IOException if region files are there but do not cover the table
   */
  static Stored fromDirectory(Storage storage, Path database, Path directory) throws IOException {
    Path parent = directory.normalize().getParent();
    String qualifier = directory.getFileName().toString();
    String name =
        parent.getParent() != null
                && parent.getParent().equals(database.resolve(NAMESPACES).normalize())
            ? parent.getFileName() + ":" + qualifier
            : qualifier;
    List<RegionInfo> regions = new ArrayList<>();
    for (Path child : storage.list(directory)) {
      if (storage.isFile(child.resolve(RegionInfoFile.NAME))) {
        regions.add(RegionInfoFile.read(storage, child));
      }
    }
    regions.sort((a, b) -> Bytes.compare(a.startKeyUnsafe(), b.startKeyUnsafe()));
    List<Path> holders = new ArrayList<>();
    if (regions.isEmpty()) {
      holders.add(directory);
    } else {
      checkCovered(directory, name, regions);
      regions.forEach(region -> holders.add(directory.resolve(region.encodedName())));
    }
    Map<String, ColumnFamilyDescriptor> families = new TreeMap<>();
    for (Path holder : holders) {
      for (Path child : storage.list(holder)) {
        String family = child.getFileName().toString();
        if (storage.isDirectory(child) && !family.startsWith(".") && holdsData(storage, child)) {
          families.putIfAbsent(family, ColumnFamilyDescriptor.of(family));
        }
      }
    }
    return new Stored(new TableDescriptor(name, new ArrayList<>(families.values())), 0, regions);
  }

  /**
   * Checks that {@code regions} (sorted), found in the region directories of the table {@code
   * name}, are its regions: each ending where the next starts, from the first row to the last.
   */
  private static void checkCovered(Path directory, String name, List<RegionInfo> regions)
      throws IOException {
    byte[] expected = new byte[0];
    for (RegionInfo region : regions) {
      if (!region.table().equals(name) || Bytes.compare(region.startKeyUnsafe(), expected) != 0) {
        throw new IOException(
            directory
                + ": the regions' "
                + RegionInfoFile.NAME
                + " files do not cover table "
                + name
                + " from its first row to its last ("
                + region
                + " does not start where the one before ends); the regions cannot be rebuilt");
      }
      expected = region.endKeyUnsafe();
    }
    if (expected.length != 0) {
      throw new IOException(
          directory + ": no region's " + RegionInfoFile.NAME + " reaches table " + name + "'s end");
    }
  }

  private static Properties parse(Storage storage, Path file) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = new ByteArrayInputStream(storage.readAllBytes(file))) {
      properties.load(in);
    } catch (IllegalArgumentException e) {
      throw new IOException(
          storage.describe(file) + ": not a properties file: " + e.getMessage(), e);
    }
    return properties;
  }

  private static Stored described(Path file, Properties properties) throws IOException {
    String name = properties.getProperty("name");
    String created = properties.getProperty("createdAtWalId");
    if (name == null || created == null) {
      throw new IOException(file + ": missing 'name' or 'createdAtWalId'");
    }
    Map<String, Map<String, String>> families = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith("family.")) {
        int dot = key.lastIndexOf('.');
        String family = key.substring("family.".length(), dot);
        families
            .computeIfAbsent(family, f -> new TreeMap<>())
            .put(key.substring(dot + 1), properties.getProperty(key));
      }
    }
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    try {
      long createdAtWalId = Long.parseLong(created);
      families.forEach(
          (family, attributes) -> descriptors.add(ColumnFamilyDescriptor.of(family, attributes)));
      return new Stored(
          new TableDescriptor(name, descriptors), createdAtWalId, regions(file, name, properties));
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The regions the descriptor lists, in key order, each checked against the encoded name it is
   * stored under; the first must start at the table's first row and no two may start at one row.
   */
  private static List<RegionInfo> regions(Path file, String name, Properties properties)
      throws IOException {
    TreeMap<byte[], Long> starts = new TreeMap<>(Bytes::compare);
    Map<byte[], String> encodedNames = new TreeMap<>(Bytes::compare);
    for (String key : properties.stringPropertyNames()) {
      if (!key.startsWith(REGION_PREFIX)) {
        continue;
      }
      String value = properties.getProperty(key);
      int comma = value.indexOf(',');
      if (comma < 0) {
        throw new IOException(file + ": region '" + key + "' = '" + value + "': expected id,start");
      }
      byte[] start = HexFormat.of().parseHex(value, comma + 1, value.length());
      long id = Long.parseLong(value.substring(0, comma));
      if (starts.put(start, id) != null) {
        throw new IOException(
            file + ": two regions start at row " + Bytes.toStringBinary(start) + "; damaged");
      }
      encodedNames.put(start, key.substring(REGION_PREFIX.length()));
    }
    if (!starts.isEmpty() && starts.firstKey().length != 0) {
      throw new IOException(
          file
              + ": no region starts at the table's first row (the first starts at "
              + Bytes.toStringBinary(starts.firstKey())
              + "); damaged");
    }
    List<RegionInfo> regions = new ArrayList<>(starts.size());
    for (Map.Entry<byte[], Long> entry : starts.entrySet()) {
      byte[] next = starts.higherKey(entry.getKey());
      RegionInfo region =
          RegionInfo.of(name, entry.getKey(), next == null ? new byte[0] : next, entry.getValue());
      String stored = encodedNames.get(entry.getKey());
      if (!region.encodedName().equals(stored)) {
        throw new IOException(
            file
                + ": region "
                + stored
                + " should be named "
                + region.encodedName()
                + " by its table, start and id; damaged");
      }
      regions.add(region);
    }
    return regions;
  }
}
