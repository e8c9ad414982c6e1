package dev.cellar.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A table's manifest is damaged before its last record (a torn last record is a crash, and is
 * dropped), or names a file that is not there. Names the file and the offset of the bad record.
 */
public final class CorruptManifestException extends IOException {

  public CorruptManifestException(Path file, long offset, String what) {
    super("manifest " + file + " at offset " + offset + ": " + what);
  }
}
