package dev.cellar.store;

import dev.cellar.hfile.FileInfo;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileVerifier;
import dev.cellar.io.RepairStep;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Plans the repair of one table's directory, reading only ({@code cellar repair}, the analogue of
 * LevelDB's {@code RepairDB}). A table whose manifest reads and accounts for every file, and whose
 * live files verify whole, only has what the open would delete set aside. Otherwise the manifest is
 * rebuilt from the files present: every file of a family directory is verified whole ({@link
 * HFileVerifier}: checksums, block chain, cell order) and one that fails is set aside; a readable
 * file that another readable file's file info names as a compaction input is set aside (its cells
 * are in that output, and without its delete markers a major compaction's input would bring deleted
 * cells back); the rest become the family's files, oldest sequence id first, and the family is
 * flushed up to the highest log id they or the manifest's readable records hold. The old manifest
 * is set aside, never overwritten in place. Nothing is ever deleted: what goes goes to {@code
 * lost/} ({@link dev.cellar.io.LostAndFound}). Stateless.
 */
public final class TableRepair {

  /**
   * A table's repair.
   *
   * @param steps what it changes, in order (empty when the table is sound)
   * @param flushed the log id each of the descriptor's families is flushed up to afterwards
   */
  public record Plan(List<RepairStep> steps, Map<String, Long> flushed) {}

  /** A readable store file and what its file info says. */
  private record Readable(Path path, long maxSequenceId, long maxWalId, List<String> inputs) {}

  private final Storage storage;
  private final Path table;
  private final List<String> families;
  private final BufAllocator allocator;
  private final List<RepairStep> steps = new ArrayList<>();

  private TableRepair(Storage storage, Path table, List<String> families, BufAllocator allocator) {
    this.storage = storage;
    this.table = table;
    this.families = families;
    this.allocator = allocator;
  }

  /** Plans the repair of the table in {@code table}, whose descriptor names {@code families}. */
  public static Plan plan(
      Storage storage, Path table, List<String> families, BufAllocator allocator)
      throws IOException {
    return new TableRepair(storage, table, families, allocator).plan();
  }

  private Plan plan() throws IOException {
    Plan sound = planIfSound();
    return sound != null ? sound : rebuild();
  }

  /** The plan for a table the open would accept whose live files all verify, or null. */
  private Plan planIfSound() throws IOException {
    Map<String, Manifest.FamilyState> recorded;
    try {
      recorded = Manifest.load(storage, table, families);
    } catch (CorruptManifestException e) {
      return null;
    }
    FileSetAudit.Verdict verdict = FileSetAudit.audit(storage, table, families, recorded);
    if (verdict.damaged() || !verdict.adopted().isEmpty()) {
      return null;
    }
    for (String family : families) {
      for (String name : recorded.get(family).files) {
        if (verify(table.resolve(family).resolve(name)) != null) {
          return null;
        }
      }
    }
    for (FileSetAudit.Garbage garbage : verdict.garbage()) {
      setAside(garbage.path(), garbage.why());
    }
    return new Plan(List.copyOf(steps), verdict.flushed());
  }

  private Plan rebuild() throws IOException {
    Map<String, Manifest.FamilyState> rebuilt = new LinkedHashMap<>();
    Map<String, Long> flushed = new LinkedHashMap<>();
    Map<String, Long> recordedFlushed = readableFlushedIds();
    for (String family : families) {
      Manifest.FamilyState state = rebuildFamily(family);
      state.flushedWalId = Math.max(state.flushedWalId, recordedFlushed.getOrDefault(family, 0L));
      rebuilt.put(family, state);
      flushed.put(family, state.flushedWalId);
    }
    for (Path child : storage.list(table)) {
      String name = child.getFileName().toString();
      if (storage.isDirectory(child) ? !families.contains(name) : !isTableFile(name)) {
        setAside(
            child,
            storage.isDirectory(child)
                ? "a directory of a family the table's descriptor does not name"
                : "not part of a table");
      }
    }
    Path manifest = table.resolve(Manifest.FILE_NAME);
    boolean hadManifest = storage.isFile(manifest);
    steps.add(
        new RepairStep(
            "rebuild "
                + storage.describe(manifest)
                + " from the files present"
                + describe(rebuilt)
                + (hadManifest ? ", the old one set aside" : ""),
            lost -> {
              if (storage.isFile(manifest)) {
                lost.move(manifest, "replaced by a manifest rebuilt from the files present");
              }
              Manifest.writeNew(storage, table, rebuilt).close();
            }));
    return new Plan(List.copyOf(steps), flushed);
  }

  private static boolean isTableFile(String name) {
    return name.equals(".tabledesc") || name.equals(Manifest.FILE_NAME);
  }

  private String describe(Map<String, Manifest.FamilyState> rebuilt) {
    StringBuilder text = new StringBuilder();
    rebuilt.forEach(
        (family, state) ->
            text.append("; ")
                .append(family)
                .append(": ")
                .append(state.files.size())
                .append(" file(s), flushed up to log id ")
                .append(state.flushedWalId));
    return text.toString();
  }

  /** The flushed ids the manifest's intact records hold, a lower bound whatever followed. */
  private Map<String, Long> readableFlushedIds() throws IOException {
    Map<String, Long> flushed = new LinkedHashMap<>();
    Path file = table.resolve(Manifest.FILE_NAME);
    if (!storage.isFile(file)) {
      return flushed;
    }
    Map<String, Manifest.FamilyState> state = new LinkedHashMap<>();
    families.forEach(family -> state.put(family, new Manifest.FamilyState()));
    for (List<Manifest.Edit> record : ManifestCodec.read(storage.readAllBytes(file)).records()) {
      Manifest.apply(record, state);
    }
    state.forEach((family, value) -> flushed.put(family, value.flushedWalId));
    return flushed;
  }

  private Manifest.FamilyState rebuildFamily(String family) throws IOException {
    Manifest.FamilyState state = new Manifest.FamilyState();
    Path directory = table.resolve(family);
    if (!storage.isDirectory(directory)) {
      return state;
    }
    List<Readable> readable = new ArrayList<>();
    for (Path path : storage.list(directory)) {
      if (storage.isDirectory(path)) {
        if (storage.list(path).isEmpty()) {
          continue;
        }
        setAside(
            path,
            path.getFileName().toString().equals(StoreFileWriter.TMP_DIRECTORY)
                ? "files being written or staged when the database stopped"
                : "a directory inside a family directory, which Cellar never makes");
        continue;
      }
      String failure = verify(path);
      if (failure != null) {
        setAside(path, failure);
      } else {
        readable.add(read(path));
      }
    }
    Set<String> compacted = new HashSet<>();
    readable.forEach(file -> compacted.addAll(file.inputs()));
    readable.sort(
        Comparator.comparingLong(Readable::maxSequenceId)
            .thenComparing(file -> file.path().getFileName().toString()));
    for (Readable file : readable) {
      String name = file.path().getFileName().toString();
      if (compacted.contains(name)) {
        setAside(file.path(), "a compaction input: a file present holds its cells");
      } else {
        state.files.add(name);
        state.flushedWalId = Math.max(state.flushedWalId, file.maxWalId());
      }
    }
    return state;
  }

  /** Why {@code file} is not a sound store file, or null if it verifies whole. */
  private String verify(Path file) {
    try (HFileReader reader =
        HFileReader.open(storage, file, allocator, UnaryOperator.identity())) {
      HFileVerifier.verify(reader);
      return null;
    } catch (IOException | RuntimeException e) {
      return "not a sound HFile: " + e.getMessage();
    }
  }

  private Readable read(Path path) throws IOException {
    try (HFileReader reader =
        HFileReader.open(storage, path, allocator, UnaryOperator.identity())) {
      FileInfo info = reader.fileInfo();
      long loaded = BulkLoadNames.sequenceId(path.getFileName().toString());
      return new Readable(
          path,
          loaded >= 0 ? loaded : info.getLong(FileInfo.MAX_SEQ_ID_KEY, 0),
          info.getLong(StoreFile.MAX_WAL_ID_KEY, 0),
          FileSetAudit.compactionInputs(storage, path));
    }
  }

  private void setAside(Path path, String why) {
    steps.add(
        new RepairStep(
            "set " + storage.describe(path) + " aside: " + why, lost -> lost.move(path, why)));
  }
}
