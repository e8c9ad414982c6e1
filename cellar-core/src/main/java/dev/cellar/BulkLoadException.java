package dev.cellar;

import java.io.IOException;

/**
 * A bulk load or export refused because of its input (a file that is not an HFile or is corrupt, a
 * family the table lacks, nothing to load, an output directory in use). The message is one line
 * naming the file and what was wrong; nothing was changed.
 */
public final class BulkLoadException extends IOException {

  public BulkLoadException(String message) {
    super(message);
  }

  public BulkLoadException(String message, Throwable cause) {
    super(message, cause);
  }
}
