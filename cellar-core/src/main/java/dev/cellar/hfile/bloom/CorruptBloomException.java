package dev.cellar.hfile.bloom;

/**
 * Thrown when a bloom meta payload or a chunk payload cannot be what a writer produced; the message
 * names the field, its offset in the payload, what was expected and what was found. Immutable and
 * thread-safe. Like HBase, callers treat it as "this file's bloom is unusable" and read without it.
 *
 * <p>An {@link IllegalArgumentException}, as HBase's bloom code throws for bad metadata.
 */
public final class CorruptBloomException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String field;
  private final long offset;

  public CorruptBloomException(String field, long offset, String expected, String found) {
    super(field + " at offset " + offset + ": expected " + expected + ", found " + found);
    this.field = field;
    this.offset = offset;
  }

  /** The field that failed the check. */
  public String field() {
    return field;
  }

  /** The offset of the field in its payload. */
  public long offset() {
    return offset;
  }
}
