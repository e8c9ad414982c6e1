package dev.cellar.store;

import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's file set: which HFiles of each family are live, and up to which log id each family is
 * flushed, kept as an append-only log of edits in {@value #FILE_NAME} in the table's directory (its
 * bytes: {@link ManifestCodec}). One record is one atomic change of the file set: a flush adds one
 * file per family and raises their flushed ids, a compaction adds its output and removes its
 * inputs, a flush, compaction or bulk load announces its outputs' names before writing them ({@link
 * #recordIntent}). What the open does with a file the manifest does not list is {@link
 * FileSetAudit}'s to decide: only what it proves garbage is deleted.
 *
 * <p><b>Durability.</b> {@link #append} writes the record and forces it before returning; the
 * caller changes the file set in memory only afterwards, and deletes a removed file only after. A
 * flush or compaction first renames its file into the family directory and forces the directory
 * (see {@link StoreFileWriter}), so a recorded file exists after a power loss.
 *
 * <p><b>Recovery.</b> {@link #open} reads every record. A last record cut short or failing its
 * checksum with nothing after it is a write a crash interrupted, never acknowledged, and is left
 * out; a damaged record with more after it fails the open with a {@link CorruptManifestException}
 * naming the file and offset, and so does a missing manifest beside store files. Then the manifest
 * is rewritten as one record of the whole state (to {@code MANIFEST.tmp}, forced, renamed over the
 * old one, directory forced), and new records are appended to that file. The same rewrite happens
 * once {@value #RECORDS_BEFORE_REWRITE} records were appended.
 *
 * <p><b>Concurrency.</b> {@link #append} and the readers of the state are synchronized: flushes and
 * compactions of different families append from different threads.
 */
final class Manifest implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Manifest.class);

  static final String FILE_NAME = "MANIFEST";
  static final int RECORDS_BEFORE_REWRITE = 1000;
  static final long UNCHANGED = -1;

  /** One family's change in a record. */
  record Edit(String family, long flushedWalId, List<String> added, List<String> removed) {}

  /**
   * A family's state: its live files in the order they were added, the names of files retired and
   * of outputs announced but not added, and its flushed log id.
   */
  static final class FamilyState {
    final Set<String> files = new LinkedHashSet<>();

    /**
     * Files a record removed while they were live (a compaction's inputs, a deleted family's files)
     * whose deletion may not have happened: provably not live, their cells elsewhere.
     */
    final Set<String> retired = new LinkedHashSet<>();

    /**
     * Names a record removed before any record added them: the intents of flushes, compactions and
     * bulk loads that had not committed. A file of such a name is complete (it is renamed into the
     * family only once written and forced) and holds only cells that are live elsewhere or were
     * about to be: the open adopts it rather than delete what may be a committed file whose record
     * a damaged manifest lost.
     */
    final Set<String> intents = new LinkedHashSet<>();

    long flushedWalId;
  }

  private final Storage storage;
  private final Path directory;
  private final Map<String, FamilyState> families;

  /** Families the table no longer has whose retired files may still be there. */
  private final Map<String, FamilyState> former;

  /** Names whose intent this process recorded and whose operation has not committed. */
  private final Set<String> inFlight = new HashSet<>();

  private AppendOnlyFile out;
  private int appended;

  private Manifest(
      Storage storage,
      Path directory,
      Map<String, FamilyState> families,
      Map<String, FamilyState> former) {
    this.storage = storage;
    this.directory = directory;
    this.families = families;
    this.former = former;
  }

  /**
   * Reads the manifest of the table in {@code directory}, audits its directory against it ({@link
   * FileSetAudit}), deletes what the audit proves is garbage and rewrites the manifest compactly.
   * Nothing is written unless the audit finds no damage.
   *
   * @throws CorruptManifestException if a record before the last is damaged, or the manifest is
   *     missing while the families hold files
   * @throws DamagedTableException if the audit finds a listed file missing or a file nothing
   *     accounts for
   */
  static Manifest open(Storage storage, Path directory, List<String> familyNames)
      throws IOException {
    Map<String, FamilyState> recorded = load(storage, directory, familyNames);
    warnOfTornTail(storage, directory.resolve(FILE_NAME));
    FileSetAudit.Verdict verdict = FileSetAudit.audit(storage, directory, familyNames, recorded);
    if (verdict.damaged()) {
      throw new DamagedTableException(directory, verdict.damage());
    }
    for (FileSetAudit.Adopted adopted : verdict.adopted()) {
      LOG.warn("adopting {}: {}", adopted.path(), adopted.why());
      FamilyState state = recorded.get(adopted.family());
      String name = adopted.path().getFileName().toString();
      state.intents.remove(name);
      state.files.add(name);
    }
    Map<String, FamilyState> families = new LinkedHashMap<>();
    Map<String, FamilyState> former = new LinkedHashMap<>();
    recorded.forEach(
        (family, state) -> (familyNames.contains(family) ? families : former).put(family, state));
    storage.createDirectories(directory);
    for (String family : familyNames) {
      // before the rewrite, which forces the table directory: a family directory whose entry a
      // power loss could take back would take the family's recorded files with it
      storage.createDirectories(directory.resolve(family));
    }
    Manifest manifest = new Manifest(storage, directory, families, former);
    manifest.delete(verdict.garbage());
    manifest.rewrite();
    return manifest;
  }

  private static void warnOfTornTail(Storage storage, Path file) throws IOException {
    if (storage.isFile(file)) {
      ManifestCodec.Records read = ManifestCodec.read(storage.readAllBytes(file));
      if (read.tornTail()) {
        LOG.warn(
            "manifest {}: leaving out a torn last record at offset {} ({})",
            file,
            read.damageOffset(),
            read.damage());
      }
    }
  }

  /**
   * Writes a manifest of {@code families}' state in {@code directory} (replacing one there, by
   * rename), forced, and returns it open for appends: for a repair that rebuilt the state from the
   * files present.
   */
  static Manifest writeNew(Storage storage, Path directory, Map<String, FamilyState> families)
      throws IOException {
    Manifest manifest =
        new Manifest(storage, directory, new LinkedHashMap<>(families), new LinkedHashMap<>());
    manifest.rewrite();
    return manifest;
  }

  /**
   * The state of every family the manifest's records name, the descriptor's {@code familyNames}
   * first (a family without records as empty). A torn last record is left out.
   *
   * @throws CorruptManifestException if a record before the last is damaged, or there is no
   *     manifest while a family directory holds a file
   */
  static Map<String, FamilyState> load(Storage storage, Path directory, List<String> familyNames)
      throws IOException {
    Path file = directory.resolve(FILE_NAME);
    Map<String, FamilyState> families = new LinkedHashMap<>();
    for (String family : familyNames) {
      families.put(family, new FamilyState());
    }
    if (!storage.isFile(file)) {
      for (String family : familyNames) {
        for (Path path : storage.list(directory.resolve(family))) {
          if (storage.isFile(path)) {
            throw new CorruptManifestException(
                file,
                0,
                "missing, while "
                    + path
                    + " is there: without it no file of the table can be told live");
          }
        }
      }
      return families;
    }
    ManifestCodec.Records read = ManifestCodec.read(storage.readAllBytes(file));
    if (read.damage() != null && !read.tornTail()) {
      throw new CorruptManifestException(file, read.damageOffset(), read.damage());
    }
    Map<String, Integer> intendedAt = new LinkedHashMap<>();
    int lastCommit = -1;
    for (int index = 0; index < read.records().size(); index++) {
      for (Edit edit : read.records().get(index)) {
        FamilyState state = families.computeIfAbsent(edit.family(), f -> new FamilyState());
        apply(edit, state);
        if (!edit.added().isEmpty() || edit.flushedWalId() != UNCHANGED) {
          lastCommit = index;
        }
        for (String name : edit.removed()) {
          if (state.intents.contains(name)) {
            intendedAt.putIfAbsent(edit.family() + "/" + name, index);
          }
        }
      }
    }
    settleIntents(families, intendedAt, lastCommit);
    return families;
  }

  /**
   * Makes every intent that a later record could have committed but did not a retired name: the
   * operation failed while the process went on (a flush retried with a later file, a compaction
   * whose inputs later ones replaced), so its file is stale and must not come back. Only the
   * intents after the last commit stay intents: a crash came before their commit, or damage cut the
   * records that committed them.
   */
  private static void settleIntents(
      Map<String, FamilyState> families, Map<String, Integer> intendedAt, int lastCommit) {
    intendedAt.forEach(
        (key, index) -> {
          if (index <= lastCommit) {
            int slash = key.indexOf('/');
            FamilyState state = families.get(key.substring(0, slash));
            String name = key.substring(slash + 1);
            if (state.intents.remove(name)) {
              state.retired.add(name);
            }
          }
        });
  }

  static void apply(List<Edit> edits, Map<String, FamilyState> families) {
    for (Edit edit : edits) {
      FamilyState state = families.get(edit.family());
      if (state != null) {
        apply(edit, state);
      }
    }
  }

  private static void apply(Edit edit, FamilyState state) {
    for (String name : edit.removed()) {
      if (state.files.remove(name)) {
        state.retired.add(name);
      } else if (!state.retired.contains(name)) {
        state.intents.add(name);
      }
    }
    for (String name : edit.added()) {
      state.files.add(name);
      state.retired.remove(name);
      state.intents.remove(name);
    }
    if (edit.flushedWalId() != UNCHANGED) {
      state.flushedWalId = Math.max(state.flushedWalId, edit.flushedWalId());
    }
  }

  /** Deletes what the audit proved is garbage, then forces the directories it changed. */
  private void delete(List<FileSetAudit.Garbage> garbage) throws IOException {
    Set<Path> changed = new LinkedHashSet<>();
    for (FileSetAudit.Garbage file : garbage) {
      LOG.info("deleting {}: {}", file.path(), file.why());
      deleteTree(file.path());
      changed.add(file.path().getParent());
    }
    for (Path changedDirectory : changed) {
      if (storage.isDirectory(changedDirectory)) {
        storage.syncDirectory(changedDirectory);
      }
    }
  }

  private void deleteTree(Path path) throws IOException {
    if (storage.isDirectory(path)) {
      for (Path child : storage.list(path)) {
        deleteTree(child);
      }
    }
    storage.deleteIfExists(path);
  }

  /**
   * Records, before an operation writes them, the names of the files it will add to each family
   * ({@code names}: family to names) as not live, and forces the record: should a crash stop the
   * operation before its commit record, the next open knows the files for an interrupted
   * operation's output ({@link FileSetAudit}). The commit record adds them.
   *
   * @throws IOException as {@link #append}
   */
  synchronized void recordIntent(Map<String, List<String>> names) throws IOException {
    List<Edit> edits = new ArrayList<>();
    names.forEach((family, files) -> edits.add(new Edit(family, UNCHANGED, List.of(), files)));
    names.values().forEach(inFlight::addAll);
    append(edits);
  }

  /** The live files of {@code family}, in the order they were added. */
  synchronized List<String> files(String family) {
    return List.copyOf(families.get(family).files);
  }

  /** The log id up to which {@code family} is flushed, as recorded. */
  synchronized long flushedWalId(String family) {
    return families.get(family).flushedWalId;
  }

  /**
   * Starts tracking a new family with no files, flushed up to {@code flushedWalId} (log entries up
   * to it belong to families the table had before), and records it durably.
   *
   * @throws IllegalArgumentException if the manifest tracks the family already
   */
  synchronized void addFamily(String family, long flushedWalId) throws IOException {
    if (families.containsKey(family)) {
      throw new IllegalArgumentException(
          "manifest of " + directory + " has family " + family + " already");
    }
    families.put(family, new FamilyState());
    try {
      append(List.of(new Edit(family, flushedWalId, List.of(), List.of())));
    } catch (IOException | RuntimeException e) {
      families.remove(family);
      throw e;
    }
    FamilyState earlier = former.remove(family);
    if (earlier != null) {
      families.get(family).retired.addAll(earlier.retired);
      families.get(family).retired.addAll(earlier.intents);
    }
  }

  /**
   * Records that {@code family} lost every file (it was deleted from the table) and stops tracking
   * it: should a family of that name be added again, replaying this file starts it empty.
   */
  synchronized void dropFamily(String family) throws IOException {
    FamilyState state = families.get(family);
    if (state == null) {
      return;
    }
    append(List.of(new Edit(family, UNCHANGED, List.of(), List.copyOf(state.files))));
    former.put(family, families.remove(family));
  }

  /**
   * Records {@code edits} as one record and forces it; only then does the state change.
   *
   * @throws IOException if the write or force failed: the state is unchanged, and the manifest
   *     fails for good (a failed force may have lost pages a retry would not report)
   */
  synchronized void append(List<Edit> edits) throws IOException {
    if (out == null) {
      throw new IOException(
          "manifest "
              + directory.resolve(FILE_NAME)
              + " failed earlier or is closed; reopen the database");
    }
    byte[] record = ManifestCodec.encodeRecord(edits);
    try {
      out.append(record, 0, record.length);
      out.sync();
    } catch (IOException | RuntimeException e) {
      closeAfterFailure(e);
      throw e;
    }
    apply(edits, families);
    edits.forEach(edit -> edit.added().forEach(inFlight::remove));
    if (++appended >= RECORDS_BEFORE_REWRITE) {
      rewrite();
    }
  }

  private void closeAfterFailure(Exception cause) {
    try {
      out.close();
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
    out = null;
  }

  /**
   * Writes the whole state as one record to a new file, forces it, renames it over the manifest and
   * forces the directory; appends then go to it.
   */
  private void rewrite() throws IOException {
    List<Edit> state = new ArrayList<>();
    for (Map.Entry<String, FamilyState> family : families.entrySet()) {
      stateOf(family.getKey(), family.getValue(), family.getValue().flushedWalId, state);
    }
    for (Map.Entry<String, FamilyState> family : former.entrySet()) {
      stateOf(family.getKey(), family.getValue(), UNCHANGED, state);
    }
    Path temporary = directory.resolve(FILE_NAME + ".tmp");
    storage.deleteIfExists(temporary);
    AppendOnlyFile next = storage.create(temporary);
    try {
      next.append(ManifestCodec.MAGIC, 0, ManifestCodec.MAGIC.length);
      byte[] record = ManifestCodec.encodeRecord(state);
      next.append(record, 0, record.length);
      next.sync();
      storage.rename(temporary, directory.resolve(FILE_NAME));
      storage.syncDirectory(directory);
    } catch (IOException | RuntimeException e) {
      try {
        next.close();
      } catch (IOException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
    if (out != null) {
      out.close();
    }
    out = next;
    appended = 0;
  }

  /**
   * Adds the edits that rebuild {@code value} on replay to {@code state}: retired names that still
   * matter as added then removed (so that they replay as retired), then the live files with the
   * flushed id, removing the intents still in flight (so that they replay as intents).
   */
  private void stateOf(String family, FamilyState value, long flushedWalId, List<Edit> state) {
    value.retired.removeIf(name -> !stillMatters(family, name));
    value.intents.removeIf(name -> !stillMatters(family, name));
    if (!value.retired.isEmpty()) {
      state.add(new Edit(family, UNCHANGED, List.copyOf(value.retired), List.of()));
      state.add(new Edit(family, UNCHANGED, List.of(), List.copyOf(value.retired)));
    }
    if (flushedWalId != UNCHANGED || !value.files.isEmpty() || !value.intents.isEmpty()) {
      state.add(
          new Edit(family, flushedWalId, List.copyOf(value.files), List.copyOf(value.intents)));
    }
  }

  /**
   * Whether a retired name or an intent must outlive a rewrite: its file is still there (readers
   * hold a retired input, or its deletion failed), or its operation is in flight.
   */
  private boolean stillMatters(String family, String name) {
    if (inFlight.contains(name)) {
      return true;
    }
    Path familyDirectory = directory.resolve(family);
    try {
      return storage.isFile(familyDirectory.resolve(name))
          || storage.isFile(familyDirectory.resolve(StoreFileWriter.TMP_DIRECTORY).resolve(name));
    } catch (IOException e) {
      return true;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
  }
}
