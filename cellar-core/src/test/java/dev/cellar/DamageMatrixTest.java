package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.memory.BufAllocator;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The damage matrix: every kind of file a database holds (manifest, table descriptor, log segment,
 * HFile, lock) damaged in every way a disk, a copy or a careless hand damages one (cut at a random
 * point, a byte flipped, deleted, replaced by garbage, emptied), on a copy of one database of two
 * tables with flushed, compacted and unflushed writes. For each case the open either serves every
 * acknowledged cell, or refuses in a message and leaves the directory as it was; a read that meets
 * a damaged block fails rather than answer short. Then {@code repair} brings back every cell a
 * readable file holds, after which the open works and {@code check} finds nothing. Throughout, no
 * value is ever wrong, no store file is ever deleted (a set-aside one is under {@code lost/}), and
 * a table never silently disappears.
 *
 * <p>The one answer short by design: damage to the last log segment is cut as a crash's torn tail
 * (a crash and a disk cannot be told apart there), so the unflushed writes that survive are the
 * ones before a point in time, in write order, never an arbitrary subset.
 *
 * <p>In CI each kind meets each damage once at random points. The long run: {@code ./run-tests -pl
 * cellar-core -Dtest=DamageMatrixTest -Dcellar.damage.rounds=2000}; replay a run with {@code
 * -Dcellar.test.seed=N} (the seed is printed and named in every failure).
 */
@ExtendWith(TestSeedExtension.class)
class DamageMatrixTest {

  enum Kind {
    MANIFEST,
    DESCRIPTOR,
    LOG_SEGMENT,
    HFILE,
    LOCK
  }

  enum Damage {
    CUT,
    FLIP,
    DELETE,
    GARBAGE,
    EMPTY
  }

  private static final List<String> TABLES = List.of("t", "u");
  private static final byte[] QUALIFIER = bytes("q");

  /** Table to "row/family" to value: every acknowledged cell. */
  private final Map<String, TreeMap<String, String>> oracle = new LinkedHashMap<>();

  /** "table:row/family" of the unflushed writes, in write order. */
  private final List<String> unflushed = new ArrayList<>();

  /** The names of the fixture's store files. */
  private final Set<String> hfiles = new HashSet<>();

  @TempDir Path temporary;
  private StorageLocation root;
  private Storage storage;

  /** Where the databases of this run live: a local directory, or a URI (HDFS). */
  String location() {
    return temporary.toString();
  }

  /** {@code config} with the settings of the file system the databases live on. */
  CellarConfig storageSettings(CellarConfig config) {
    return config;
  }

  /** The random cases after the matrix, unless -Dcellar.damage.rounds says. */
  int defaultRounds() {
    return 0;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private CellarConfig config() {
    return storageSettings(
        CellarConfig.defaults()
            .with("hfile.block.cache.memory.size", "4m")
            .with("hbase.hstore.compaction.min", "100")
            .with("hbase.hstore.compaction.max", "100"));
  }

  private String locationOf(Path database) {
    return storage.describe(database);
  }

  private static List<String> familiesOf(String table) {
    return table.equals("t") ? List.of("f", "g") : List.of("f");
  }

  /** Builds the database every case damages a copy of, in {@code fixture}. */
  private void buildFixture(Path fixture) throws IOException {
    Cellar cellar = Cellar.open(locationOf(fixture), config());
    for (String table : TABLES) {
      List<ColumnFamilyDescriptor> families = new ArrayList<>();
      familiesOf(table).forEach(family -> families.add(ColumnFamilyDescriptor.of(family)));
      cellar.admin().createTable(new TableDescriptor(table, families));
      oracle.put(table, new TreeMap<>());
    }
    int row = 0;
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 30; i++, row++) {
        for (String table : TABLES) {
          put(cellar, table, row, null);
        }
      }
      for (String table : TABLES) {
        cellar.admin().flush(table);
      }
    }
    cellar.admin().majorCompact("t");
    for (int i = 0; i < 25; i++, row++) {
      for (String table : TABLES) {
        put(cellar, table, row, unflushed);
      }
    }
    cellar.abort();
    for (Path file : walk(fixture.resolve("tables"))) {
      String name = file.getFileName().toString();
      if (name.matches("[0-9a-f]{32}.*")) {
        hfiles.add(name);
      }
    }
  }

  private void put(Cellar cellar, String table, int row, List<String> unflushed)
      throws IOException {
    String key = String.format("row-%05d", row);
    Put put = new Put(bytes(key));
    for (String family : familiesOf(table)) {
      String value = table + "-" + family + "-" + row;
      put.addColumn(bytes(family), QUALIFIER, bytes(value));
      oracle.get(table).put(key + "/" + family, value);
      if (unflushed != null) {
        unflushed.add(table + ":" + key + "/" + family);
      }
    }
    cellar.table(table).put(put);
  }

  @Test
  void everyKindOfFileDamagedEveryWay(TestSeed seed) throws IOException {
    int rounds = Integer.getInteger("cellar.damage.rounds", defaultRounds());
    Random random = new Random(seed.value());
    root = StorageLocation.resolve(location(), config().settings());
    storage = root.storage();
    Path fixture = root.directory().resolve("fixture");
    buildFixture(fixture);
    int run = 0;
    for (Kind kind : Kind.values()) {
      for (Damage damage : Damage.values()) {
        runCase(fixture, kind, damage, random, run++);
      }
    }
    for (int i = 0; i < rounds; i++) {
      runCase(
          fixture,
          Kind.values()[random.nextInt(Kind.values().length)],
          Damage.values()[random.nextInt(Damage.values().length)],
          random,
          run++);
    }
    root.close();
  }

  private void runCase(Path fixture, Kind kind, Damage damage, Random random, int run)
      throws IOException {
    Path database = root.directory().resolve("case-" + run);
    copyTree(fixture, database);
    Path file = pick(kind, database, random);
    String context =
        "case " + run + ": " + damage + " of " + kind + " " + database.relativize(file);
    Set<String> inDamagedFile = kind == Kind.HFILE ? keysIn(file) : Set.of();
    String detail = damage(file, damage, random);
    context += detail;
    Map<String, String> before = hash(database);

    boolean servedWhole = false;
    try (Cellar cellar = Cellar.open(locationOf(database), config())) {
      servedWhole = servesEveryAcknowledgedCell(cellar, kind, context);
    } catch (IOException e) {
      assertFalse(e.getMessage() == null || e.getMessage().isBlank(), context);
      assertEquals(
          before,
          hash(database),
          context + ": a refused open changed files (" + e.getMessage() + ")");
    }
    String deleted = damage == Damage.DELETE ? file.getFileName().toString() : null;
    assertNoStoreFileDeleted(database, deleted, context);
    if (servedWhole) {
      return;
    }
    try {
      Cellar.repair(locationOf(database), config(), false);
    } catch (IOException e) {
      throw new AssertionError(context + ": repair failed: " + e.getMessage(), e);
    }
    assertNoStoreFileDeleted(database, deleted, context + ", after repair");
    try (Cellar cellar = Cellar.open(locationOf(database), config())) {
      Map<String, TreeMap<String, String>> found = readAll(cellar, context);
      assertRepaired(found, kind, inDamagedFile, context);
    } catch (IOException e) {
      throw new AssertionError(context + ": the open after repair failed: " + e.getMessage(), e);
    }
    assertEquals(
        List.of(),
        DatabaseCheck.check(locationOf(database), config()).problems(),
        context + ": check after repair");
  }

  /**
   * Whether the open served every acknowledged cell; false when a read met damage (it failed rather
   * than answering short). Fails the test on a wrong value, a missing table, or a short answer
   * other than a point in time of the last segment's writes.
   */
  private boolean servesEveryAcknowledgedCell(Cellar cellar, Kind kind, String context) {
    Map<String, TreeMap<String, String>> found;
    try {
      found = readAll(cellar, context);
    } catch (IOException | RuntimeException e) {
      assertTrue(
          String.valueOf(e.getMessage()).contains("checksum")
              || String.valueOf(e.getMessage()).toLowerCase().contains("corrupt")
              || e.getClass().getSimpleName().startsWith("Corrupt"),
          context + ": a read failed" + " without naming the damage: " + e);
      return false;
    }
    List<String> missing = missing(found, context);
    if (kind == Kind.LOG_SEGMENT && !missing.isEmpty()) {
      List<String> suffix = unflushed.subList(unflushed.size() - missing.size(), unflushed.size());
      assertEquals(
          new HashSet<>(suffix),
          new HashSet<>(missing),
          context + ": what the cut log" + " lost is not the writes after one point in time");
      return true;
    }
    assertEquals(List.of(), missing, context + ": acknowledged cells missing");
    return true;
  }

  private void assertRepaired(
      Map<String, TreeMap<String, String>> found,
      Kind kind,
      Set<String> inDamagedFile,
      String context) {
    List<String> missing = missing(found, context);
    for (String cell : missing) {
      boolean allowed =
          switch (kind) {
            case HFILE -> inDamagedFile.contains(cell);
            case LOG_SEGMENT -> unflushed.contains(cell);
            default -> false;
          };
      if (!allowed) {
        fail(
            context
                + ": after repair "
                + cell
                + " is missing, though a readable file holds it"
                + " ("
                + missing.size()
                + " missing)");
      }
    }
  }

  /** The acknowledged cells {@code found} lacks; fails on a wrong value or an extra cell. */
  private List<String> missing(Map<String, TreeMap<String, String>> found, String context) {
    List<String> missing = new ArrayList<>();
    for (String table : TABLES) {
      TreeMap<String, String> cells = found.get(table);
      assertTrue(cells != null, context + ": table " + table + " is gone");
      for (Map.Entry<String, String> cell : cells.entrySet()) {
        assertEquals(
            oracle.get(table).get(cell.getKey()),
            cell.getValue(),
            context + ": wrong or unknown value for " + table + ":" + cell.getKey());
      }
      for (String key : oracle.get(table).keySet()) {
        if (!cells.containsKey(key)) {
          missing.add(table + ":" + key);
        }
      }
    }
    return missing;
  }

  private static Map<String, TreeMap<String, String>> readAll(Cellar cellar, String context)
      throws IOException {
    Map<String, TreeMap<String, String>> found = new LinkedHashMap<>();
    for (String table : TABLES) {
      if (!cellar.admin().tableExists(table)) {
        continue;
      }
      TreeMap<String, String> cells = new TreeMap<>();
      try (ResultScanner scanner = cellar.table(table).scanner(new Scan())) {
        for (Result result : scanner) {
          try (result) {
            String row = new String(result.row(), StandardCharsets.UTF_8);
            for (String family : familiesOf(table)) {
              byte[] value = result.getValue(bytes(family), QUALIFIER);
              if (value != null) {
                cells.put(row + "/" + family, new String(value, StandardCharsets.UTF_8));
              }
            }
          }
        }
      }
      found.put(table, cells);
    }
    return found;
  }

  /**
   * Every store file of the fixture but the one the test deleted ({@code deleted}, or null) is
   * still somewhere in the database, lost/ included.
   */
  private void assertNoStoreFileDeleted(Path database, String deleted, String context)
      throws IOException {
    Set<String> present = new HashSet<>();
    walk(database).forEach(path -> present.add(path.getFileName().toString()));
    for (String name : hfiles) {
      assertTrue(
          present.contains(name) || name.equals(deleted),
          context + ": store file " + name + " was deleted");
    }
  }

  /** The "table:row/family" cells {@code file}, an HFile of the fixture, holds. */
  private Set<String> keysIn(Path file) throws IOException {
    String table = file.getParent().getParent().getFileName().toString();
    String family = file.getParent().getFileName().toString();
    Set<String> keys = new HashSet<>();
    try (HFileReader reader =
            HFileReader.open(storage, file, BufAllocator.HEAP, UnaryOperator.identity());
        HFileScanner scanner = reader.scanner(false)) {
      for (boolean more = scanner.seekTo(); more; more = scanner.next()) {
        Cell cell = scanner.current();
        keys.add(
            table
                + ":"
                + Bytes.toString(cell.segment(), cell.rowOffset(), cell.rowLength())
                + "/"
                + family);
      }
    }
    return keys;
  }

  private Path pick(Kind kind, Path database, Random random) throws IOException {
    String table = TABLES.get(random.nextInt(TABLES.size()));
    return switch (kind) {
      case MANIFEST -> database.resolve("tables").resolve(table).resolve("MANIFEST");
      case DESCRIPTOR -> database.resolve("tables").resolve(table).resolve(".tabledesc");
      case LOCK ->
          random.nextBoolean() ? database.resolve("LOCK") : database.resolve("wal").resolve("LOCK");
      case LOG_SEGMENT -> oneOf(list(database.resolve("wal"), "wal-"), random);
      case HFILE -> {
        List<Path> files = new ArrayList<>();
        for (String name : TABLES) {
          for (String family : familiesOf(name)) {
            files.addAll(list(database.resolve("tables").resolve(name).resolve(family), ""));
          }
        }
        yield oneOf(files, random);
      }
    };
  }

  private List<Path> list(Path directory, String prefix) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path path : storage.list(directory)) {
      if (storage.isFile(path) && path.getFileName().toString().startsWith(prefix)) {
        files.add(path);
      }
    }
    files.sort(null);
    return files;
  }

  private static Path oneOf(List<Path> files, Random random) {
    return files.get(random.nextInt(files.size()));
  }

  /** Damages {@code file}; returns what was done, for the failure message. */
  private String damage(Path file, Damage damage, Random random) throws IOException {
    long size = storage.size(file);
    switch (damage) {
      case DELETE -> storage.deleteIfExists(file);
      case EMPTY -> rewrite(file, new byte[0]);
      case CUT -> {
        long at = size == 0 ? 0 : random.nextLong(size);
        rewrite(file, java.util.Arrays.copyOf(storage.readAllBytes(file), (int) at));
        return " at " + at + " of " + size;
      }
      case FLIP -> {
        if (size == 0) {
          return " (empty)";
        }
        byte[] content = storage.readAllBytes(file);
        int at = random.nextInt(content.length);
        content[at] ^= (byte) (1 + random.nextInt(255));
        rewrite(file, content);
        return " at " + at + " of " + size;
      }
      case GARBAGE -> {
        byte[] garbage = new byte[(int) Math.max(1, size)];
        random.nextBytes(garbage);
        rewrite(file, garbage);
      }
    }
    return "";
  }

  /** Replaces {@code file}'s content with {@code content}. */
  private void rewrite(Path file, byte[] content) throws IOException {
    storage.deleteIfExists(file);
    try (AppendOnlyFile out = storage.create(file)) {
      out.append(content, 0, content.length);
      out.sync();
    }
  }

  /** Every regular file under {@code directory}. */
  private List<Path> walk(Path directory) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path path : storage.list(directory)) {
      if (storage.isDirectory(path)) {
        files.addAll(walk(path));
      } else {
        files.add(path);
      }
    }
    return files;
  }

  /**
   * Every entry under {@code directory} with a digest of its bytes ("dir" for a directory), {@code
   * LOCK} files left out (they record who opened last, not data).
   */
  private Map<String, String> hash(Path directory) throws IOException {
    Map<String, String> entries = new TreeMap<>();
    hash(directory, directory, entries);
    return entries;
  }

  private void hash(Path root, Path directory, Map<String, String> entries) throws IOException {
    for (Path path : storage.list(directory)) {
      String name = root.relativize(path).toString();
      if (storage.isDirectory(path)) {
        entries.put(name, "dir");
        hash(root, path, entries);
      } else if (!path.getFileName().toString().equals("LOCK")) {
        entries.put(name, java.util.HexFormat.of().formatHex(sha256(storage.readAllBytes(path))));
      }
    }
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private void copyTree(Path from, Path to) throws IOException {
    storage.createDirectories(to);
    for (Path path : storage.list(from)) {
      Path target = to.resolve(path.getFileName().toString());
      if (storage.isDirectory(path)) {
        copyTree(path, target);
      } else {
        byte[] content = storage.readAllBytes(path);
        try (AppendOnlyFile out = storage.create(target)) {
          out.append(content, 0, content.length);
          out.sync();
        }
      }
    }
  }
}
