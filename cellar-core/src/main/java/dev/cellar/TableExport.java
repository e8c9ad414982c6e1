package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLocation;
import dev.cellar.store.Region;
import dev.cellar.store.RegionExport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Exports a table as HBase's bulk load takes it, {@code <out>/<family>/<hfile>}: a point-in-time
 * copy made while the table goes on taking writes, every version the family keeps, delete markers
 * applied (see {@link RegionExport} for what the files hold). The output directory must be new or
 * empty; it is local or, by URI, on another file system (HDFS), written there directly: a database
 * on HDFS exports into the same HDFS without passing the bytes through a local disk, and HBase's
 * bulk load from that HDFS then moves the files into its table rather than copying them. Stateless.
 */
public final class TableExport {

  /**
   * How a client asks {@code cellar serve} for an export: a master coprocessor endpoint call
   * (HBase's {@code MasterService.ExecMasterService}, what HBase's {@code
   * Admin.coprocessorService()} sends) to service {@value Remote#ENDPOINT_SERVICE}, method {@value
   * Remote#ENDPOINT_METHOD}. The request and the response are protobuf {@code
   * google.protobuf.Struct}s with these fields: the request {@value #TABLE} (string), {@value #OUT}
   * (string: a directory on the server's disk or a URI) and {@value #SPLIT_KEYS} (a list of Base64
   * strings); the response {@value #FAMILIES} (a list of structs with {@value #FAMILY}, {@value
   * #FILES} as URIs or paths, {@value #CELLS}) and {@value #PROGRESS} (the progress lines, in
   * order).
   */
  public static final class Remote {
    public static final String ENDPOINT_SERVICE = "CellarExportService";
    public static final String ENDPOINT_METHOD = "Export";
    public static final String TABLE = "table";
    public static final String OUT = "out";
    public static final String SPLIT_KEYS = "splitKeys";
    public static final String FAMILIES = "families";
    public static final String FAMILY = "family";
    public static final String FILES = "files";
    public static final String CELLS = "cells";
    public static final String PROGRESS = "progress";

    private Remote() {}
  }

  /**
   * What an export wrote of one family.
   *
   * @param name the family
   * @param files the HFiles written, as the user knows them: a local path, or the full URI on
   *     another file system
   * @param cells the cells in them
   */
  public record Family(String name, List<String> files, long cells) {

    public Family {
      files = List.copyOf(files);
    }
  }

  private TableExport() {}

  /**
   * Exports {@code table} of {@code cellar} into the local directory {@code out}; see {@link
   * #export(Cellar, String, String, CellarConfig, List, Consumer)}.
   */
  public static List<Family> export(
      Cellar cellar, String table, Path out, List<byte[]> splitKeys, Consumer<String> progress)
      throws IOException {
    return export(cellar, table, StorageLocation.local(out), splitKeys, progress);
  }

  /**
   * Exports {@code table} of {@code cellar} into {@code out}, a local directory or, by URI, one on
   * another file system that {@code config} holds the client settings of; the files are cut at
   * {@code splitKeys} (HBase's region boundaries; any order, duplicates ignored). Progress lines go
   * to {@code progress}.
   *
   * @throws BulkLoadException if {@code out} is a file or a directory that is not empty, or a split
   *     key is empty
   * @throws TableNotFoundException if there is no such table
   */
  public static List<Family> export(
      Cellar cellar,
      String table,
      String out,
      CellarConfig config,
      List<byte[]> splitKeys,
      Consumer<String> progress)
      throws IOException {
    try (StorageLocation location = StorageLocation.resolve(out, config.settings())) {
      return export(cellar, table, location, splitKeys, progress);
    }
  }

  private static List<Family> export(
      Cellar cellar,
      String table,
      StorageLocation out,
      List<byte[]> splitKeys,
      Consumer<String> progress)
      throws IOException {
    CellarTable source = (CellarTable) cellar.table(table);
    Storage storage = out.storage();
    Path directory = out.directory();
    checkOutput(storage, directory);
    List<byte[]> keys = new ArrayList<>();
    for (byte[] key : splitKeys) {
      if (key.length == 0) {
        throw new BulkLoadException("split keys: an empty key is not a region boundary");
      }
      keys.add(key.clone());
    }
    keys.sort(Bytes::compare);
    for (int i = keys.size() - 1; i > 0; i--) {
      if (Bytes.compare(keys.get(i), keys.get(i - 1)) == 0) {
        keys.remove(i);
      }
    }
    storage.createDirectories(directory);
    Map<String, List<String>> files = new LinkedHashMap<>();
    Map<String, Long> cells = new LinkedHashMap<>();
    long now = System.currentTimeMillis();
    for (Region region : source.regions()) {
      for (RegionExport.FamilyExport family :
          RegionExport.export(region, storage, directory, keys, now, progress)) {
        files
            .computeIfAbsent(family.family(), f -> new ArrayList<>())
            .addAll(family.files().stream().map(storage::describe).toList());
        cells.merge(family.family(), family.cells(), Long::sum);
      }
    }
    List<Family> families = new ArrayList<>();
    files.forEach(
        (family, written) -> families.add(new Family(family, written, cells.get(family))));
    return families;
  }

  private static void checkOutput(Storage storage, Path out) throws IOException {
    if (storage.isFile(out)) {
      throw new BulkLoadException(storage.describe(out) + ": exists and is not a directory");
    }
    if (storage.isDirectory(out) && !storage.list(out).isEmpty()) {
      throw new BulkLoadException(
          storage.describe(out) + ": is not empty; export into a new or" + " empty directory");
    }
  }
}
