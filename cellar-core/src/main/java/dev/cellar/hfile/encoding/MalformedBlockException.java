package dev.cellar.hfile.encoding;

import dev.cellar.schema.DataBlockEncoding;

/**
 * A data block payload does not follow its encoding: a length runs past the end, a prefix is longer
 * than the previous key, a flag or dictionary index is impossible. Unchecked, so that the seeker's
 * hot-path methods need not declare it; the HFile reader catches it and reports the file and the
 * block's offset with it. Immutable and thread-safe.
 */
public final class MalformedBlockException extends RuntimeException {

  private final DataBlockEncoding encoding;
  private final long offset;
  private final String expected;
  private final String found;

  /**
   * @param encoding the block's encoding
   * @param offset the position in the payload (0 = the first payload byte) where the problem is
   * @param expected what the encoding allows there
   * @param found what the payload holds
   */
  public MalformedBlockException(
      DataBlockEncoding encoding, long offset, String expected, String found) {
    super(
        "malformed "
            + encoding
            + " block at payload offset "
            + offset
            + ": expected "
            + expected
            + ", found "
            + found);
    this.encoding = encoding;
    this.offset = offset;
    this.expected = expected;
    this.found = found;
  }

  /** Returns the encoding the block was read with. */
  public DataBlockEncoding encoding() {
    return encoding;
  }

  /** Returns the position in the payload where the problem was found. */
  public long offset() {
    return offset;
  }

  /** Returns what the encoding allows at that position. */
  public String expected() {
    return expected;
  }

  /** Returns what the payload holds there. */
  public String found() {
    return found;
  }
}
