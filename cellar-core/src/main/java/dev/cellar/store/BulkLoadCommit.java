package dev.cellar.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commit of a bulk load (see {@link Region#bulkLoad}): staged files placed into their family
 * directories under bulk-load names, opened, recorded in one manifest record, then added to
 * their stores.
 *
 * <p><b>Failure.</b> Until the record is appended, a failure renames every placed file back to
 * its staged path and closes what was opened: the table is as before and the caller still has
 * its staged files. If the append itself fails, the record may have reached the disk: the files
 * stay where they are, closed, and the next open keeps them (recorded) or deletes them (not).
 * A crash at any point leaves the table with every file or none, since only the record makes
 * them live. Stateless; the caller holds the region's flush lock.
 */
final class BulkLoadCommit {

  private BulkLoadCommit() {}

  /** A file placed into its family directory, and where it was staged. */
  private record Placed(Store store, Path staged, Path placed) {}

  static void commit(Manifest manifest, Map<Store, List<Path>> staged, long sequenceId)
      throws IOException {
    List<Placed> placed = new ArrayList<>();
    Map<Store, List<StoreFile>> opened = new LinkedHashMap<>();
    List<Manifest.Edit> edits = new ArrayList<>();
    try {
      for (Map.Entry<Store, List<Path>> family : staged.entrySet()) {
        Store store = family.getKey();
        List<String> names = new ArrayList<>();
        for (Path file : family.getValue()) {
          Path target = store.placeLoaded(file, BulkLoadNames.newName(sequenceId));
          placed.add(new Placed(store, file, target));
          opened.computeIfAbsent(store, s -> new ArrayList<>()).add(store.openFlushed(target));
          names.add(target.getFileName().toString());
        }
        edits.add(new Manifest.Edit(store.family().nameString(), Manifest.UNCHANGED, names,
            List.of()));
      }
    } catch (IOException | RuntimeException e) {
      opened.values().forEach(files -> files.forEach(StoreFile::close));
      for (Placed file : placed.reversed()) {
        try {
          file.store().unplaceLoaded(file.placed(), file.staged());
        } catch (IOException | RuntimeException undo) {
          e.addSuppressed(undo);
        }
      }
      throw e;
    }
    try {
      manifest.append(edits);
    } catch (IOException | RuntimeException e) {
      opened.values().forEach(files -> files.forEach(StoreFile::close));
      throw e;
    }
    opened.forEach(Store::addLoaded);
  }
}
