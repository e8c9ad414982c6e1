package dev.cellar.store;

import dev.cellar.io.FileProblem;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a table's file set offline, changing nothing, with the same audit the open makes ({@link
 * FileSetAudit}), so that what it reports is what the next open does: a torn last record (which the
 * open leaves out), damage before the last record or a missing manifest beside files (the open
 * refuses), a listed file that is missing or a file nothing accounts for (the open refuses, and
 * {@code cellar repair} rebuilds the manifest), and what the open deletes as provably left by an
 * interrupted flush, compaction or bulk load. Stateless.
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
   * @param refuses whether the next open refuses the table
   */
  public record Result(
      int records, Map<String, List<Path>> files, List<FileProblem> problems, boolean refuses) {}

  private ManifestCheck() {}

  /** Checks the table in {@code tableDirectory}, whose descriptor names {@code families}. */
  public static Result check(Storage storage, Path tableDirectory, List<String> families)
      throws IOException {
    List<FileProblem> problems = new ArrayList<>();
    Path file = tableDirectory.resolve(Manifest.FILE_NAME);
    int records = 0;
    if (storage.isFile(file)) {
      ManifestCodec.Records read = ManifestCodec.read(storage.readAllBytes(file));
      records = read.records().size();
      if (read.damage() != null && read.tornTail()) {
        problems.add(
            new FileProblem(
                file,
                read.damageOffset(),
                "torn last record ("
                    + read.damage()
                    + "): a write a crash interrupted, which the next open leaves out"));
      } else if (read.damage() != null) {
        problems.add(
            new FileProblem(
                file,
                read.damageOffset(),
                "damaged record ("
                    + read.damage()
                    + ") with records after it: the next open refuses the table;"
                    + " 'cellar repair' rebuilds the manifest from the files present"));
        return new Result(records, Map.of(), problems, true);
      }
    }
    Map<String, Manifest.FamilyState> state;
    try {
      state = Manifest.load(storage, tableDirectory, families);
    } catch (CorruptManifestException e) {
      problems.add(
          FileProblem.of(
              file,
              e.getMessage()
                  + ": the next open refuses the table;"
                  + " 'cellar repair' rebuilds the manifest from the files present"));
      return new Result(records, Map.of(), problems, true);
    }
    Map<String, List<Path>> files = new LinkedHashMap<>();
    for (String family : families) {
      List<Path> listed = new ArrayList<>();
      state
          .get(family)
          .files
          .forEach(name -> listed.add(tableDirectory.resolve(family).resolve(name)));
      files.put(family, listed);
    }
    FileSetAudit.Verdict verdict = FileSetAudit.audit(storage, tableDirectory, families, state);
    for (FileProblem damage : verdict.damage()) {
      problems.add(
          new FileProblem(
              damage.file(),
              damage.offset(),
              damage.what()
                  + " (the next open refuses the table; 'cellar repair' rebuilds the manifest)"));
    }
    for (FileSetAudit.Adopted adopted : verdict.adopted()) {
      problems.add(
          FileProblem.of(
              adopted.path(), adopted.why() + " (the next open adds it to" + " the table)"));
    }
    for (FileSetAudit.Garbage garbage : verdict.garbage()) {
      problems.add(FileProblem.of(garbage.path(), garbage.why() + " (the next open deletes it)"));
    }
    return new Result(records, files, problems, verdict.damaged());
  }
}
