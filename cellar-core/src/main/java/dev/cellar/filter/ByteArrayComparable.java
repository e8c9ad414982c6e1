package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A value that comparison filters hold a cell's row, family, qualifier or value against, as HBase's
 * ByteArrayComparable. The value is copied in at construction and kept with a heap segment over it,
 * so that a comparison reads the cell where it lies and allocates nothing. Immutable and
 * thread-safe.
 */
public abstract class ByteArrayComparable {

  private final byte[] value;
  private final MemorySegment segment;

  /**
   * @param value the value; copied
   * @throws NullPointerException if {@code value} is null
   */
  protected ByteArrayComparable(byte[] value) {
    this.value = Objects.requireNonNull(value, "comparator value").clone();
    this.segment = MemorySegment.ofArray(this.value);
  }

  /** A copy of the value. */
  public final byte[] value() {
    return value.clone();
  }

  /** The value's length in bytes. */
  protected final int valueLength() {
    return value.length;
  }

  /** The value as a heap segment; callers must not write to it. */
  protected final MemorySegment valueSegment() {
    return segment;
  }

  /**
   * Compares the value with {@code length} bytes of {@code bytes} at {@code offset}, HBase's way
   * round: negative when the value sorts before the bytes, zero when they match, positive after.
   */
  public abstract int compareTo(MemorySegment bytes, long offset, int length);

  /** As {@link #compareTo(MemorySegment, long, int)} over a whole array. */
  public final int compareTo(byte[] bytes) {
    return compareTo(MemorySegment.ofArray(bytes), 0, bytes.length);
  }

  /**
   * Whether {@link #compareTo} orders bytes, so that the ordering operators mean something; false
   * for comparators that only tell a match (zero) from a mismatch.
   */
  public boolean ordersBytes() {
    return true;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + " " + Bytes.toStringBinary(value);
  }
}
