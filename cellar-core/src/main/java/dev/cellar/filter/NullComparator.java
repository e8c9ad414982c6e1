package dev.cellar.filter;

import java.lang.foreign.MemorySegment;

/**
 * HBase's NullComparator: its value is empty and it tells every range, even an empty one, apart
 * from "null" ({@link #compareTo} always answers 1), so with EQUAL nothing passes and with
 * NOT_EQUAL everything does. In a check-and-mutate its empty value asks for an absent or empty
 * column, as any comparator with an empty value does there.
 */
public final class NullComparator extends ByteArrayComparable {

  public NullComparator() {
    super(new byte[0]);
  }

  @Override
  public int compareTo(MemorySegment bytes, long offset, int length) {
    return 1;
  }

  @Override
  public boolean ordersBytes() {
    return false;
  }

  @Override
  public String toString() {
    return "NullComparator";
  }
}
