package dev.cellar.store.wal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A write-ahead log segment's bytes are not what the format allows where they must be intact: a bad
 * header, an entry whose CRC32C does not match, an impossible length, sequence ids out of order.
 * The message names the file, the offset, what was expected and what was found. Nothing read from a
 * corrupt entry is ever replayed.
 */
public final class CorruptWalException extends IOException {

  private final Path file;
  private final long offset;
  private final String detail;

  public CorruptWalException(Path file, long offset, String what, Object expected, Object found) {
    this(file, file.toString(), offset, what, expected, found);
  }

  /**
   * As {@link #CorruptWalException(Path, long, String, Object, Object)}, naming the file as {@code
   * described} (its URI on a file system other than the local one).
   */
  public CorruptWalException(
      Path file, String described, long offset, String what, Object expected, Object found) {
    this(file, described, offset, what + " (expected " + expected + ", found " + found + ")");
  }

  private CorruptWalException(Path file, String described, long offset, String detail) {
    super("WAL segment " + described + " at offset " + offset + ": " + detail);
    this.detail = detail;
    this.file = file;
    this.offset = offset;
  }

  /**
   * This damage with {@code consequence} (what it means for the open, and what to do) after its
   * detail; file and offset stay.
   */
  CorruptWalException withConsequence(String described, String consequence) {
    return new CorruptWalException(file, described, offset, detail + "; " + consequence);
  }

  /** The segment file that is corrupt. */
  public Path file() {
    return file;
  }

  /** What is wrong, expected against found, without the file and offset. */
  public String detail() {
    return detail;
  }

  /** The file offset of the header or entry found corrupt. */
  public long offset() {
    return offset;
  }
}
