package dev.cellar.store;

import dev.cellar.hfile.HFileReader;
import dev.cellar.io.FileProblem;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Decides, reading only, what each file in a table's directory is by what its manifest's records
 * say ({@link Manifest}): live (listed), garbage that an interrupted operation provably left, or
 * unaccounted for, which is evidence of damage. The open refuses on any unaccounted file before it
 * writes anything and deletes the garbage only once it knows it will open; {@code cellar check}
 * reports the same verdicts, so the two always agree.
 *
 * <p><b>What proves a file is not live.</b>
 *
 * <ul>
 *   <li>It is in a family's {@value StoreFileWriter#TMP_DIRECTORY}: it was never renamed into the
 *       family (an output being written, or a staged bulk-load file).
 *   <li>A record removed it while it was live: a compaction's inputs and a deleted family's files
 *       are removed by the record that retires them, and the manifest keeps such names across its
 *       rewrites while their files exist.
 *   <li>A listed file's file info names it as a compaction input ({@value
 *       StoreFileWriter#COMPACTION_INPUTS_KEY}): every cell of it is in that live output.
 *   <li>{@code MANIFEST.tmp}: a rewrite that stopped before its rename.
 *   <li>A directory of a family the descriptor does not name that holds only files the manifest
 *       knows for that family's: a deleted family (the descriptor's write deletes it), or an
 *       addition a crash cut short before the descriptor named it.
 * </ul>
 *
 * A flush, compaction or bulk load records its output's name as removed (its intent) before it
 * writes the file, so a file so named that no record added is complete, and either an operation a
 * crash interrupted before its commit record or a committed one whose record a damaged manifest
 * lost. An intent a later record could have committed and did not is an operation that failed while
 * the process went on: its file is stale (a major compaction may since have dropped the delete
 * markers that hid its cells) and is deleted ({@link Manifest#load} folds such intents into the
 * retired names). Of the intents after the last commit, a compaction's output is deleted (its cells
 * are in its inputs, which the manifest still lists, or whose absence refuses the open), and so is
 * a bulk load's file (the load did not happen; its sources are the caller's); a flush's output the
 * open adopts ({@link Adopted}): at worst it holds cells the log replays again, and if damage cut
 * its commit record it may hold acknowledged cells no log has any more.
 *
 * <p>Anything else in a family directory, a file the manifest lists that is missing, and a family
 * directory of no family holding a file of unknown origin are damage: a manifest that lost records
 * (a cut or an older copy), a file copied in by hand. Their cells may be acknowledged writes that
 * no log holds any more, so the open must not delete them. Stateless.
 */
public final class FileSetAudit {

  /** A file that is provably not live, and why. */
  public record Garbage(Path path, String why) {}

  /** A complete file an operation announced and did not record, which the open adds. */
  public record Adopted(String family, Path path, String why) {}

  /**
   * The verdict on one table directory.
   *
   * @param garbage what the open deletes
   * @param damage what makes the open refuse, each naming its file
   * @param flushed the log id each of the descriptor's families is flushed up to, as recorded
   * @param live the files the manifest lists, every family's
   * @param adopted what the open adds to the file set
   */
  public record Verdict(
      List<Garbage> garbage,
      List<FileProblem> damage,
      Map<String, Long> flushed,
      List<Path> live,
      List<Adopted> adopted) {

    public boolean damaged() {
      return !damage.isEmpty();
    }
  }

  private final Storage storage;
  private final Path table;
  private final Path manifest;
  private final Map<String, Manifest.FamilyState> recorded;
  private final List<Garbage> garbage = new ArrayList<>();
  private final List<FileProblem> damage = new ArrayList<>();
  private final List<Adopted> adopted = new ArrayList<>();

  /** Names listed compaction outputs took as inputs, per family; read on first need. */
  private final Map<String, Set<String>> compactedInputs = new LinkedHashMap<>();

  private FileSetAudit(Storage storage, Path table, Map<String, Manifest.FamilyState> recorded) {
    this.storage = storage;
    this.table = table;
    this.manifest = table.resolve(Manifest.FILE_NAME);
    this.recorded = recorded;
  }

  /**
   * Audits the table in {@code table}, whose descriptor names {@code families}, against its
   * manifest: what the open of the table would decide, reading only.
   *
   * @throws CorruptManifestException if a manifest record before the last is damaged, or the
   *     manifest is missing while the families hold files (the open refuses too)
   */
  public static Verdict auditTable(Storage storage, Path table, List<String> families)
      throws IOException {
    return audit(storage, table, families, Manifest.load(storage, table, families));
  }

  /**
   * Audits the table in {@code table}, whose descriptor names {@code families}, against {@code
   * recorded}: the state of every family its manifest's records name (descriptor families included,
   * a family without records as empty).
   */
  static Verdict audit(
      Storage storage,
      Path table,
      List<String> families,
      Map<String, Manifest.FamilyState> recorded)
      throws IOException {
    FileSetAudit audit = new FileSetAudit(storage, table, recorded);
    audit.run(families);
    Map<String, Long> flushed = new LinkedHashMap<>();
    List<Path> live = new ArrayList<>();
    for (String family : families) {
      Manifest.FamilyState state = recorded.get(family);
      flushed.put(family, state == null ? 0 : state.flushedWalId);
      if (state != null) {
        state.files.forEach(name -> live.add(table.resolve(family).resolve(name)));
      }
    }
    return new Verdict(
        List.copyOf(audit.garbage),
        List.copyOf(audit.damage),
        flushed,
        List.copyOf(live),
        List.copyOf(audit.adopted));
  }

  private void run(List<String> families) throws IOException {
    if (storage.isFile(table.resolve(Manifest.FILE_NAME + ".tmp"))) {
      garbage.add(
          new Garbage(
              table.resolve(Manifest.FILE_NAME + ".tmp"),
              "a rewrite of the manifest that stopped before its rename"));
    }
    for (String family : families) {
      auditFamily(family, recorded.getOrDefault(family, new Manifest.FamilyState()));
    }
    for (Path child : storage.list(table)) {
      String name = child.getFileName().toString();
      if (storage.isDirectory(child) && !families.contains(name)) {
        auditFormerFamily(child, recorded.get(name));
      }
    }
  }

  private void auditFamily(String family, Manifest.FamilyState state) throws IOException {
    Path directory = table.resolve(family);
    for (String name : state.files) {
      if (!storage.isFile(directory.resolve(name))) {
        damage.add(
            FileProblem.of(directory.resolve(name), "listed in " + manifest + " but missing"));
      }
    }
    if (!storage.isDirectory(directory)) {
      return;
    }
    for (Path path : storage.list(directory)) {
      String name = path.getFileName().toString();
      if (name.equals(StoreFileWriter.TMP_DIRECTORY)) {
        auditTemporary(path);
      } else if (storage.isDirectory(path)) {
        damage.add(
            FileProblem.of(
                path, "a directory inside a family directory, which Cellar" + " never makes"));
      } else if (!state.files.contains(name)) {
        auditUnlisted(family, state, path, name);
      }
    }
  }

  private void auditUnlisted(String family, Manifest.FamilyState state, Path path, String name)
      throws IOException {
    if (state.retired.contains(name)) {
      garbage.add(
          new Garbage(
              path,
              "retired by "
                  + manifest
                  + " (a compaction's input or a"
                  + " deleted family's file whose deletion a crash interrupted)"));
    } else if (state.intents.contains(name) && isCompactionOutput(path)) {
      garbage.add(
          new Garbage(
              path,
              "the output of a compaction "
                  + manifest
                  + " announced and"
                  + " did not record: its cells are in its inputs, or in what replaced them"));
    } else if (state.intents.contains(name) && BulkLoadNames.sequenceId(name) >= 0) {
      garbage.add(
          new Garbage(
              path,
              "a file of a bulk load "
                  + manifest
                  + " announced and did"
                  + " not record (a crash before its commit): the load did not happen, and its source"
                  + " files are the caller's"));
    } else if (state.intents.contains(name)) {
      adopted.add(
          new Adopted(
              family,
              path,
              "the complete output of a flush, compaction or bulk"
                  + " load "
                  + manifest
                  + " announced and does not record (a crash before its commit, or"
                  + " a commit record the manifest lost): kept, its cells are at worst also elsewhere"));
    } else if (inputsOfListedCompactions(family, state).contains(name)) {
      garbage.add(
          new Garbage(path, "an input of a live compaction output, which holds its" + " cells"));
    } else {
      damage.add(
          FileProblem.of(
              path,
              "not listed in "
                  + manifest
                  + ", and no interrupted"
                  + " flush, compaction or bulk load accounts for it: the manifest may have lost records"));
    }
  }

  private void auditTemporary(Path tmp) throws IOException {
    for (Path path : storage.list(tmp)) {
      garbage.add(
          new Garbage(
              path, "a file that was being written or staged when the database" + " stopped"));
    }
  }

  /**
   * A directory of a family the descriptor does not name: garbage, deleted whole, if it holds only
   * files the manifest knows for the family's (retired by the family's deletion, or still listed
   * when a crash came between the descriptor's write, which deletes a family, and the manifest's
   * record of it), staged files, or nothing (an addition cut short).
   */
  private void auditFormerFamily(Path directory, Manifest.FamilyState state) throws IOException {
    List<Path> unknown = new ArrayList<>();
    for (Path path : storage.list(directory)) {
      String name = path.getFileName().toString();
      boolean retired =
          state != null
              && (state.retired.contains(name)
                  || state.files.contains(name)
                  || state.intents.contains(name));
      if (storage.isDirectory(path) ? !name.equals(StoreFileWriter.TMP_DIRECTORY) : !retired) {
        unknown.add(path);
      }
    }
    if (unknown.isEmpty()) {
      garbage.add(new Garbage(directory, "the directory of a family the table no longer has"));
    }
    for (Path path : unknown) {
      damage.add(
          FileProblem.of(
              path,
              "in the directory of a family the table's descriptor does"
                  + " not name, and not retired by "
                  + manifest
                  + ": the descriptor may have lost the"
                  + " family"));
    }
  }

  /** Whether {@code file} is a compaction's output (its file info names its inputs). */
  private boolean isCompactionOutput(Path file) {
    return !compactionInputs(storage, file).isEmpty();
  }

  /** The names the listed files of {@code family} say they were compacted from. */
  private Set<String> inputsOfListedCompactions(String family, Manifest.FamilyState state)
      throws IOException {
    Set<String> inputs = compactedInputs.get(family);
    if (inputs != null) {
      return inputs;
    }
    inputs = new HashSet<>();
    for (String name : state.files) {
      Path path = table.resolve(family).resolve(name);
      if (storage.isFile(path)) {
        inputs.addAll(compactionInputs(storage, path));
      }
    }
    compactedInputs.put(family, inputs);
    return inputs;
  }

  /**
   * The input names {@code file}'s file info records, empty for a file that is not a compaction
   * output or cannot be read (its damage is the checker's to report, not a reason to delete).
   */
  static List<String> compactionInputs(Storage storage, Path file) {
    try (HFileReader reader =
        HFileReader.open(storage, file, BufAllocator.HEAP, UnaryOperator.identity())) {
      String names = reader.fileInfo().getString(StoreFileWriter.COMPACTION_INPUTS_KEY, "");
      return names.isEmpty() ? List.of() : List.of(names.split(","));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }
}
