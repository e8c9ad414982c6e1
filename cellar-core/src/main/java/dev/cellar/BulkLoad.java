package dev.cellar;

import dev.cellar.BulkLoadSource.LoadFile;
import dev.cellar.cell.Bytes;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import dev.cellar.store.Region;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Loads a directory of HFiles into a table as HBase's {@code completebulkload} does: {@code
 * <dir>/<family>/<hfile>}, written by HBase (a flushed region's directory, a snapshot's files) or
 * by {@link TableExport}.
 *
 * <p><b>Order.</b> (1) Every file is found and verified whole ({@link BulkLoadSource}); any problem
 * ends the load with a {@link BulkLoadException} before anything changed. (2) A missing table is
 * created with the families found (HBase's {@code create.table=yes}: each family with the defaults
 * and the compression of its files, split into regions where the files' rows leave gaps, as HBase's
 * tool splits it: {@link FileBoundaries}). A family the table lacks is refused. (3) Each file is
 * staged in its family's {@code .tmp} directory: copied (forced), or with {@code move} hard-linked
 * there (copied where a link is not possible), the source deleted once the load committed. A move
 * never renames the source away before the commit: the next open empties {@code .tmp}, so a crash
 * would lose a source staged there by name alone. (4) {@link Region#bulkLoad} flushes the table,
 * gives all files one new sequence id, renames them into their family directories as {@code
 * <hex>_SeqId_<n>_} and records them in one manifest record.
 *
 * <p><b>Failure.</b> Before (4) commits, a failure deletes the staged copies and links, and the
 * sources stay; a crash leaves staged files, which the next open deletes, and the sources. After a
 * crash in (4) each file is in the table or none is; with {@code move}, a crash after the commit
 * may leave sources that were loaded; the log names the load's files, and loading the sources again
 * would give their cells a newer sequence id than writes made since.
 *
 * <p><b>Regions.</b> In a table of several regions each file goes to the region holding its rows,
 * and (3) and (4) run region by region, in key order: each region's files are one commit, as HBase
 * loads them. A file whose rows span a region boundary is refused in (1), with the boundary named
 * (HBase's tool splits such a file; Cellar does not yet). A failure in a later region leaves the
 * earlier regions loaded. Stateless.
 */
public final class BulkLoad {

  private static final int COPY_BUFFER = 1 << 20;

  private BulkLoad() {}

  /**
   * What was loaded.
   *
   * @param created whether the table was created by the load
   * @param files the number of files loaded per family
   * @param cells the number of cells loaded
   * @param sequenceId the sequence id the files were loaded at
   */
  public record Report(
      String table, boolean created, Map<String, Integer> files, long cells, long sequenceId) {}

  /** A file staged for the load, and where it came from. */
  private record Staged(LoadFile source, Path staged) {}

  /**
   * Loads the HFiles of {@code dir} into {@code table} of {@code cellar}, creating the table if
   * needed; copies them, or moves them with {@code move}. Progress lines go to {@code progress}.
   *
   * @throws BulkLoadException if the input is refused; nothing changed then
   */
  public static Report load(
      Cellar cellar, String table, Path dir, boolean move, Consumer<String> progress)
      throws IOException {
    Map<String, List<LoadFile>> found = BulkLoadSource.find(dir, cellar.allocator(), progress);
    boolean created = false;
    if (!cellar.admin().tableExists(table)) {
      List<FileBoundaries.Span> spans = new ArrayList<>();
      found
          .values()
          .forEach(
              files ->
                  files.forEach(
                      file -> spans.add(new FileBoundaries.Span(file.firstRow(), file.lastRow()))));
      byte[][] splitKeys = FileBoundaries.splitKeys(spans);
      cellar.admin().createTable(descriptorFor(table, found), splitKeys);
      progress.accept(
          "created table "
              + table
              + " with families "
              + found.keySet()
              + (splitKeys.length == 0
                  ? ""
                  : " in " + (splitKeys.length + 1) + " regions at the files' boundaries"));
      created = true;
    } else {
      TableDescriptor descriptor = cellar.admin().describe(table);
      for (String family : found.keySet()) {
        if (descriptor.family(family) == null) {
          throw new BulkLoadException(
              dir.resolve(family)
                  + ": table "
                  + table
                  + " has no family '"
                  + family
                  + "'; its families: "
                  + descriptor.families().stream().map(ColumnFamilyDescriptor::name).toList());
        }
      }
    }
    CellarTable target = (CellarTable) cellar.table(table);
    Map<Region, Map<String, List<LoadFile>>> byRegion = byRegion(target, found);
    List<Staged> staged = new ArrayList<>();
    List<Staged> committed = new ArrayList<>();
    long sequenceId = 0;
    try {
      for (Map.Entry<Region, Map<String, List<LoadFile>>> part : byRegion.entrySet()) {
        Region region = part.getKey();
        Map<String, List<Path>> byFamily = new LinkedHashMap<>();
        for (Map.Entry<String, List<LoadFile>> family : part.getValue().entrySet()) {
          Path staging = region.bulkLoadStaging(family.getKey());
          for (LoadFile file : family.getValue()) {
            Staged one = stage(cellar.storage(), file, staging, move);
            staged.add(one);
            byFamily.computeIfAbsent(family.getKey(), f -> new ArrayList<>()).add(one.staged());
          }
        }
        sequenceId = Math.max(sequenceId, region.bulkLoad(byFamily));
        committed.addAll(staged);
        staged.clear();
      }
    } catch (IOException | RuntimeException e) {
      unstage(cellar.storage(), staged, e);
      throw e;
    }
    if (move) {
      for (Staged one : committed) {
        cellar.storage().deleteIfExists(one.source().path());
      }
    }
    Map<String, Integer> files = new LinkedHashMap<>();
    long cells = 0;
    for (Map.Entry<String, List<LoadFile>> family : found.entrySet()) {
      files.put(family.getKey(), family.getValue().size());
      cells += family.getValue().stream().mapToLong(LoadFile::cells).sum();
    }
    return new Report(TableNames.lookupKey(table), created, files, cells, sequenceId);
  }

  /**
   * The files of each region of {@code table}, by family, in key order: each file goes to the
   * region holding its rows. A table of regions loads each region's files as one commit of that
   * region, as HBase loads region by region.
   *
   * @throws BulkLoadException naming the file and the boundary if a file's rows span regions
   */
  private static Map<Region, Map<String, List<LoadFile>>> byRegion(
      CellarTable table, Map<String, List<LoadFile>> found) throws BulkLoadException {
    List<RegionInfo> infos = table.regionInfos();
    List<Region> regions = table.regions();
    Map<Region, Map<String, List<LoadFile>>> byRegion = new LinkedHashMap<>();
    for (Map.Entry<String, List<LoadFile>> family : found.entrySet()) {
      for (LoadFile file : family.getValue()) {
        int index = regionOf(infos, file.firstRow());
        RegionInfo region = infos.get(index);
        if (!region.containsRow(file.lastRow())) {
          throw new BulkLoadException(
              file.path()
                  + ": rows "
                  + Bytes.toStringBinary(file.firstRow())
                  + " to "
                  + Bytes.toStringBinary(file.lastRow())
                  + " span the regions of table "
                  + table.name()
                  + " (one ends at "
                  + Bytes.toStringBinary(region.endKey())
                  + "); write one file per region (cellar export --split-keys with the table's"
                  + " region boundaries does); nothing was loaded");
        }
        byRegion
            .computeIfAbsent(regions.get(index), r -> new LinkedHashMap<>())
            .computeIfAbsent(family.getKey(), f -> new ArrayList<>())
            .add(file);
      }
    }
    Map<Region, Map<String, List<LoadFile>>> ordered = new LinkedHashMap<>();
    for (Region region : regions) {
      if (byRegion.containsKey(region)) {
        ordered.put(region, byRegion.get(region));
      }
    }
    return ordered;
  }

  private static int regionOf(List<RegionInfo> regions, byte[] row) {
    for (int i = regions.size() - 1; i > 0; i--) {
      if (Bytes.compare(regions.get(i).startKey(), row) <= 0) {
        return i;
      }
    }
    return 0;
  }

  /** HBase's inference: the families found, each with the defaults and its files' compression. */
  private static TableDescriptor descriptorFor(String table, Map<String, List<LoadFile>> found) {
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    for (Map.Entry<String, List<LoadFile>> family : found.entrySet()) {
      families.add(
          ColumnFamilyDescriptor.of(
              family.getKey(),
              Map.of("COMPRESSION", family.getValue().getFirst().compression().name())));
    }
    return new TableDescriptor(table, families);
  }

  /**
   * Stages {@code file} under a new name in {@code staging}: a hard link to it with {@code move}
   * where the file systems allow one (made directly: a link changes no table, and the next open
   * deletes a staged name), else a forced copy through {@code storage}.
   */
  private static Staged stage(Storage storage, LoadFile file, Path staging, boolean move)
      throws IOException {
    Path target = staging.resolve(UUID.randomUUID().toString().replace("-", ""));
    if (move) {
      try {
        Files.createLink(target, file.path());
        return new Staged(file, target);
      } catch (IOException | UnsupportedOperationException e) {
        // another file system, or none with hard links: copy, and delete the source once loaded
      }
    }
    copy(storage, file.path(), target);
    return new Staged(file, target);
  }

  private static void copy(Storage storage, Path source, Path target) throws IOException {
    byte[] buffer = new byte[COPY_BUFFER];
    try (InputStream in = Files.newInputStream(source);
        AppendOnlyFile out = storage.create(target)) {
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        out.append(buffer, 0, read);
      }
      out.sync();
    } catch (IOException | RuntimeException e) {
      try {
        storage.deleteIfExists(target);
      } catch (IOException | RuntimeException deleteFailure) {
        e.addSuppressed(deleteFailure);
      }
      throw e;
    }
  }

  /** Deletes the staged copies and links; the sources stay. */
  private static void unstage(Storage storage, List<Staged> staged, Exception cause) {
    for (Staged one : staged) {
      try {
        storage.deleteIfExists(one.staged());
      } catch (IOException | RuntimeException e) {
        cause.addSuppressed(e);
      }
    }
  }
}
