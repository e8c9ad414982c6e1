package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;

/**
 * Compares the value with as many leading bytes of a range as the value has, as HBase's
 * BinaryPrefixComparator: zero when the range starts with the value. A range shorter than the value
 * is compared whole, so one that is a proper prefix of the value sorts before it.
 */
public final class BinaryPrefixComparator extends ByteArrayComparable {

  public BinaryPrefixComparator(byte[] prefix) {
    super(prefix);
  }

  @Override
  public int compareTo(MemorySegment bytes, long offset, int length) {
    return Bytes.compare(
        valueSegment(), 0, valueLength(), bytes, offset, Math.min(length, valueLength()));
  }
}
