package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;

/** Compares whole byte ranges with the value as unsigned bytes, as HBase's BinaryComparator. */
public final class BinaryComparator extends ByteArrayComparable {

  public BinaryComparator(byte[] value) {
    super(value);
  }

  @Override
  public int compareTo(MemorySegment bytes, long offset, int length) {
    return Bytes.compare(valueSegment(), 0, valueLength(), bytes, offset, length);
  }
}
