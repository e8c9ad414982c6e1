package dev.cellar;

import dev.cellar.io.DirectoryLockedException;
import dev.cellar.io.LostAndFound;
import dev.cellar.io.RepairStep;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.io.StorageLock;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.store.TableRepair;
import dev.cellar.store.wal.RecoveryBounds;
import dev.cellar.store.wal.WalRepair;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Brings a damaged database back so that it opens, as LevelDB's {@code RepairDB} and HBase's {@code
 * hbck2} do ({@code cellar repair}, {@link Cellar#repair}). It plans every change reading only,
 * then makes them in order:
 *
 * <ul>
 *   <li>each table's manifest is rebuilt from the store files present when it is damaged or does
 *       not account for them ({@link TableRepair}: files that fail verification and compaction
 *       inputs a file present holds are set aside);
 *   <li>a damaged descriptor is rewritten as much of it as reads (its checksum recomputed), a
 *       missing or unreadable one from the directory (the table's name, a family of default
 *       attributes per family directory); a descriptor naming another table's directory is set
 *       aside with its directory, and so is what a crash left (a create without its descriptor, a
 *       dropped table's directory), which the open would have deleted;
 *   <li>the log keeps every entry before its damage, its damaged parts are set aside and an empty
 *       segment starts its ids above every id the tables' files hold ({@link WalRepair}).
 * </ul>
 *
 * Nothing is deleted: what is taken out of the way goes to {@code lost/<time>/} of the database
 * ({@link LostAndFound}, the log's in its own directory when it lives on another file system) with
 * {@value LostAndFound#NOTES} saying why, and {@value LostAndFound#REPORT} there lists every step
 * and every edit that may be lost. Afterwards the open works and {@code cellar check} finds
 * nothing.
 *
 * <p><b>Refusals.</b> A path that is no database, a database another process holds (its lock or its
 * log's), or a directory that cannot be written: one line, and nothing changed. A dry run only
 * probes the locks and takes nothing. Not thread-safe; one repair at a time per database.
 */
public final class DatabaseRepair {

  /**
   * What a repair did, or would do.
   *
   * @param steps every change, in order, one line each (empty if nothing was wrong)
   * @param lost where what was set aside went, if anything was
   * @param dryRun whether the steps were only planned
   */
  public record Report(List<String> steps, Optional<String> lost, boolean dryRun) {}

  private DatabaseRepair() {}

  /**
   * Repairs the database at {@code location} (a path or a URI) with its log where {@value
   * CellarConfig#WAL_DIR} in {@code config} says; with {@code dryRun} only plans.
   *
   * @throws DirectoryLockedException if another process holds the database or its log
   * @throws IOException in one line if {@code location} is no database or cannot be written
   */
  public static Report repair(String location, CellarConfig config, boolean dryRun)
      throws IOException {
    try (StorageLocation database = StorageLocation.resolve(location, config.settings());
        WalPlacement wal = WalPlacement.resolve(database, config)) {
      return repair(database.storage(), database.directory(), wal, dryRun);
    }
  }

  /** Repairs the database in {@code directory} of {@code storage} with its log at {@code wal}. */
  static Report repair(Storage storage, Path directory, WalPlacement wal, boolean dryRun)
      throws IOException {
    if (!storage.isDirectory(directory)
        || !storage.isDirectory(directory.resolve(TableDirectory.TABLES))) {
      throw new IOException(
          storage.describe(directory)
              + " is not a Cellar database (it has"
              + " no "
              + TableDirectory.TABLES
              + "/ directory); nothing was changed");
    }
    if (!dryRun) {
      return repairLocked(storage, directory, wal);
    }
    refuseIfHeld(storage, directory);
    if (wal.storage().isDirectory(wal.directory())) {
      refuseIfHeld(wal.storage(), wal.directory());
    }
    return plan(storage, directory, wal).report(true);
  }

  private static Report repairLocked(Storage storage, Path directory, WalPlacement wal)
      throws IOException {
    try (StorageLock lock = lock(storage, directory);
        StorageLock walLock =
            wal.storage().isDirectory(wal.directory())
                ? lock(wal.storage(), wal.directory())
                : null) {
      probeWritable(storage, directory);
      Planned planned = plan(storage, directory, wal);
      Instant now = Instant.now();
      boolean walApart = wal.storage() != storage || !wal.directory().startsWith(directory);
      try (LostAndFound lost = LostAndFound.under(storage, directory, now)) {
        run(planned.tables(), lost);
        if (walApart) {
          try (LostAndFound walLost = LostAndFound.under(wal.storage(), wal.directory(), now)) {
            run(planned.log(), walLost);
          }
        } else {
          run(planned.log(), lost);
        }
        Report report = planned.report(false);
        if (report.steps().isEmpty()) {
          return report;
        }
        lost.report(report.steps());
        return new Report(report.steps(), Optional.of(storage.describe(lost.root())), false);
      }
    }
  }

  private static void run(List<RepairStep> steps, LostAndFound lost) throws IOException {
    for (RepairStep step : steps) {
      step.action().run(lost);
    }
  }

  /** Takes {@code directory}'s lock, saying in one line why it cannot be taken. */
  private static StorageLock lock(Storage storage, Path directory) throws IOException {
    try {
      return storage.lock(directory);
    } catch (DirectoryLockedException e) {
      throw e;
    } catch (IOException e) {
      throw new IOException(
          "cannot take the lock of "
              + storage.describe(directory)
              + ": "
              + e
              + " (is it writable?); nothing was changed",
          e);
    }
  }

  private static void probeWritable(Storage storage, Path directory) throws IOException {
    Path probe = directory.resolve(".repair-probe");
    try {
      storage.create(probe).close();
      storage.deleteIfExists(probe);
    } catch (IOException e) {
      throw new IOException(
          "cannot repair "
              + storage.describe(directory)
              + ": it cannot be"
              + " written ("
              + e
              + "); nothing was changed",
          e);
    }
  }

  /** Every step, tables first, then the log. */
  private record Planned(List<RepairStep> tables, List<RepairStep> log) {

    Report report(boolean dryRun) {
      List<String> lines = new ArrayList<>();
      tables.forEach(step -> lines.add(step.what()));
      log.forEach(step -> lines.add(step.what()));
      return new Report(List.copyOf(lines), Optional.empty(), dryRun);
    }
  }

  private static void refuseIfHeld(Storage storage, Path directory) throws IOException {
    Optional<String> holder = storage.probeLock(directory);
    if (holder.isPresent()) {
      throw new DirectoryLockedException(
          directory,
          storage.describe(directory),
          "held by " + holder.get() + "; close it before repairing");
    }
  }

  private static Planned plan(Storage storage, Path directory, WalPlacement wal)
      throws IOException {
    List<RepairStep> steps = new ArrayList<>();
    Map<String, Long> floors = new HashMap<>();
    long highest = 0;
    try (BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT)) {
      for (Path table : TableDirectory.all(storage, directory)) {
        if (!storage.isDirectory(table)) {
          continue;
        }
        String unusable = unusable(storage, directory, table);
        if (unusable != null) {
          steps.add(
              new RepairStep(
                  "set " + storage.describe(table) + " aside: " + unusable,
                  lost -> lost.move(table, unusable)));
          continue;
        }
        TableDirectory.Stored stored = descriptor(storage, directory, table, steps);
        List<String> families = new ArrayList<>();
        stored.descriptor().families().forEach(family -> families.add(family.name()));
        for (TableRegions.Place region : stored.placed(table).places()) {
          TableRepair.Plan plan =
              TableRepair.plan(storage, region.directory(), families, allocator);
          steps.addAll(plan.steps());
          long floor = Long.MAX_VALUE;
          for (long flushed : plan.flushed().values()) {
            floor = Math.min(floor, flushed);
            highest = Math.max(highest, flushed);
          }
          floors.put(
              region.walKey(),
              Math.max(stored.createdAtWalId(), floor == Long.MAX_VALUE ? 0 : floor));
        }
      }
    }
    List<RepairStep> log =
        WalRepair.plan(wal.storage(), wal.directory(), RecoveryBounds.of(floors, highest));
    return new Planned(steps, log);
  }

  /** Why the table directory {@code table} cannot be repaired in place, or null if it can. */
  private static String unusable(Storage storage, Path database, Path table) throws IOException {
    if (TableDirectory.dropped(table)) {
      return "a dropped table's directory, left by an interrupted drop";
    }
    Path file = table.resolve(TableDirectory.DESCRIPTOR);
    if (!storage.isFile(file) && !TableDirectory.holdsData(storage, table)) {
      return "a table directory left by an interrupted create";
    }
    if (storage.isFile(file)) {
      try {
        String name = TableDirectory.read(storage, table).descriptor().name();
        Path expected = Cellar.tableDirectory(database, name);
        if (!expected.equals(table.normalize()) && !TableDirectory.legacy(database, table, name)) {
          return "its "
              + TableDirectory.DESCRIPTOR
              + " names table '"
              + name
              + "', whose directory is "
              + expected;
        }
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
    return null;
  }

  /**
   * The table's descriptor: as stored when it reads whole; else as much of it as reads, or one made
   * from the directory (its name, a family of default attributes per family directory), written by
   * a step added to {@code steps}, the old one set aside.
   */
  private static TableDirectory.Stored descriptor(
      Storage storage, Path database, Path table, List<RepairStep> steps) throws IOException {
    Path file = table.resolve(TableDirectory.DESCRIPTOR);
    if (storage.isFile(file)) {
      try {
        return TableDirectory.read(storage, table);
      } catch (IOException | RuntimeException e) {
        TableDirectory.Stored lenient = lenient(storage, database, table);
        TableDirectory.Stored rebuilt =
            lenient != null ? lenient : TableDirectory.fromDirectory(storage, database, table);
        steps.add(
            new RepairStep(
                "rewrite "
                    + storage.describe(file)
                    + " ("
                    + e.getMessage()
                    + ") "
                    + (lenient != null
                        ? "as it reads, with a new checksum: check its family" + " attributes"
                        : "from the directory, with default family attributes: set"
                            + " them again with alter")
                    + "; the old one set aside",
                lost -> {
                  lost.move(file, "damaged: " + e.getMessage());
                  TableDirectory.write(
                      storage,
                      table,
                      rebuilt.descriptor(),
                      rebuilt.createdAtWalId(),
                      rebuilt.regions());
                }));
        return rebuilt;
      }
    }
    TableDirectory.Stored rebuilt = TableDirectory.fromDirectory(storage, database, table);
    steps.add(
        new RepairStep(
            "write "
                + storage.describe(file)
                + ", which is missing, from the"
                + " directory, with default family attributes: set them again with alter",
            lost ->
                TableDirectory.write(
                    storage,
                    table,
                    rebuilt.descriptor(),
                    rebuilt.createdAtWalId(),
                    rebuilt.regions())));
    return rebuilt;
  }

  /** The descriptor as much of it as reads, if that names this directory's table; else null. */
  private static TableDirectory.Stored lenient(Storage storage, Path database, Path table) {
    try {
      TableDirectory.Stored stored = TableDirectory.readLeniently(storage, table);
      return Cellar.tableDirectory(database, stored.descriptor().name()).equals(table.normalize())
          ? stored
          : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
