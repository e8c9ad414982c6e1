package dev.cellar.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commit of a bulk load (see {@link Region#bulkLoad}): the files' bulk-load names recorded as
 * the load's intent (so that a crash before the commit leaves files the next open knows for an
 * interrupted load's), the staged files placed into their family directories under those names,
 * opened, recorded in one manifest record, then added to their stores.
 *
 * <p><b>Failure.</b> Until the record is appended, a failure renames every placed file back to its
 * staged path and closes what was opened: the table is as before and the caller still has its
 * staged files. If the append itself fails, the record may have reached the disk: the files stay
 * where they are, closed, and the next open keeps them (recorded) or deletes them (not). A crash at
 * any point leaves the table with every file or none, since only the record makes them live.
 * Stateless; the caller holds the region's flush lock.
 */
final class BulkLoadCommit {

  private BulkLoadCommit() {}

  /** A file placed into its family directory, and where it was staged. */
  private record Placed(Store store, Path staged, Path placed) {}

  static void commit(Manifest manifest, Map<Store, List<Path>> staged, long sequenceId)
      throws IOException {
    Map<Store, List<String>> names = new LinkedHashMap<>();
    Map<String, List<String>> intent = new LinkedHashMap<>();
    for (Map.Entry<Store, List<Path>> family : staged.entrySet()) {
      List<String> familyNames = new ArrayList<>();
      family.getValue().forEach(file -> familyNames.add(BulkLoadNames.newName(sequenceId)));
      names.put(family.getKey(), familyNames);
      intent.merge(
          family.getKey().family().nameString(),
          familyNames,
          (a, b) -> {
            List<String> both = new ArrayList<>(a);
            both.addAll(b);
            return both;
          });
    }
    manifest.recordIntent(intent);
    List<Placed> placed = new ArrayList<>();
    Map<Store, List<StoreFile>> opened = new LinkedHashMap<>();
    List<Manifest.Edit> edits = new ArrayList<>();
    try {
      for (Map.Entry<Store, List<Path>> family : staged.entrySet()) {
        Store store = family.getKey();
        List<String> familyNames = names.get(store);
        for (int i = 0; i < family.getValue().size(); i++) {
          Path file = family.getValue().get(i);
          Path target = store.placeLoaded(file, familyNames.get(i));
          placed.add(new Placed(store, file, target));
          opened.computeIfAbsent(store, s -> new ArrayList<>()).add(store.openFlushed(target));
        }
        edits.add(
            new Manifest.Edit(
                store.family().nameString(), Manifest.UNCHANGED, familyNames, List.of()));
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
