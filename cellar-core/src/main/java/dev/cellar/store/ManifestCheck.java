package dev.cellar.store;

import dev.cellar.io.FileProblem;
import java.io.IOException;
import dev.cellar.io.Storage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a table's file set offline, changing nothing: reads its {@value Manifest#FILE_NAME}
 * record by record, then compares what it lists with the family directories. Reports, each with
 * file and offset: a damaged record (a torn last record, which the next open drops, or damage
 * before the last, which fails the open), a listed file that is missing, a file in a family
 * directory or its {@code .tmp/} that the manifest does not list (the next open deletes it). A
 * table without a manifest (an older Cellar's) lists every file of its family directories, as an
 * open would. Damage before the last record leaves the file set unknown: the listed files of the
 * records before it are verified, the directories are not compared. Stateless.
 */
public final class ManifestCheck {

  /** The manifest's file name in a table directory. */
  public static final String FILE_NAME = Manifest.FILE_NAME;

  /**
   * What a check found.
   *
   * @param records the manifest's intact records
   * @param files the live files of each family, by the manifest (absent ones included)
   * @param problems what is wrong, in the order found
   */
  public record Result(int records, Map<String, List<Path>> files, List<FileProblem> problems) {}

  private ManifestCheck() {}

  /** Checks the table in {@code tableDirectory}, whose descriptor names {@code families}. */
  public static Result check(Storage storage, Path tableDirectory, List<String> families)
      throws IOException {
    Map<String, Manifest.FamilyState> state = new LinkedHashMap<>();
    for (String family : families) {
      state.put(family, new Manifest.FamilyState());
    }
    List<FileProblem> problems = new ArrayList<>();
    Path file = tableDirectory.resolve(Manifest.FILE_NAME);
    int records = 0;
    boolean fatal = false;
    if (storage.isFile(file)) {
      Manifest.Records read = Manifest.read(storage.readAllBytes(file));
      records = read.records().size();
      for (List<Manifest.Edit> record : read.records()) {
        Manifest.apply(record, state);
      }
      fatal = read.damage() != null && !read.tornTail();
      if (read.damage() != null) {
        problems.add(new FileProblem(file, read.damageOffset(), read.tornTail()
            ? "torn last record (" + read.damage() + "): a write a crash interrupted, which the"
                + " next open drops"
            : "damaged record (" + read.damage() + ") with records after it: the next open"
                + " fails, and the family directories are not compared with the manifest"));
      }
    } else {
      for (String family : families) {
        for (Path path : regularFiles(storage, tableDirectory.resolve(family))) {
          state.get(family).files.add(path.getFileName().toString());
        }
      }
    }
    Map<String, List<Path>> files = new LinkedHashMap<>();
    for (Map.Entry<String, Manifest.FamilyState> family : state.entrySet()) {
      Path directory = tableDirectory.resolve(family.getKey());
      List<Path> listed = new ArrayList<>();
      for (String name : family.getValue().files) {
        Path path = directory.resolve(name);
        listed.add(path);
        if (!storage.isFile(path)) {
          problems.add(FileProblem.of(path, "listed in " + file + " but missing"));
        }
      }
      files.put(family.getKey(), listed);
      if (fatal) {
        continue;
      }
      for (Path path : regularFiles(storage, directory)) {
        if (!family.getValue().files.contains(path.getFileName().toString())) {
          problems.add(FileProblem.of(path, "not listed in " + file
              + " (left by an interrupted flush or compaction; the next open deletes it)"));
        }
      }
      for (Path path : regularFiles(storage, directory.resolve(StoreFileWriter.TMP_DIRECTORY))) {
        problems.add(FileProblem.of(path, "a file being written when the database stopped"
            + " (the next open deletes it)"));
      }
    }
    return new Result(records, files, problems);
  }

  private static List<Path> regularFiles(Storage storage, Path directory) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path path : storage.list(directory)) {
      if (storage.isFile(path)) {
        files.add(path);
      }
    }
    return files;
  }
}
