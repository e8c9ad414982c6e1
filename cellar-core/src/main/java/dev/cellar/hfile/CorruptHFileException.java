package dev.cellar.hfile;

import java.io.IOException;

/**
 * An HFile's bytes are not what the format allows: a bad magic, a checksum mismatch, an impossible
 * size, a truncated file or a malformed trailer. The message names the file, the offset, what was
 * expected and what was found. Nothing read from a corrupt region is ever returned as data.
 */
public final class CorruptHFileException extends IOException {

  private final String file;
  private final long offset;

  public CorruptHFileException(
      String file, long offset, String what, Object expected, Object found) {
    super(
        file
            + " at offset "
            + offset
            + ": "
            + what
            + " (expected "
            + expected
            + ", found "
            + found
            + ")");
    this.file = file;
    this.offset = offset;
  }

  public CorruptHFileException(String file, long offset, String what, Throwable cause) {
    super(file + " at offset " + offset + ": " + what + ": " + cause.getMessage(), cause);
    this.file = file;
    this.offset = offset;
  }

  /** The file that is corrupt. */
  public String file() {
    return file;
  }

  /** The file offset of the structure found corrupt. */
  public long offset() {
    return offset;
  }
}
