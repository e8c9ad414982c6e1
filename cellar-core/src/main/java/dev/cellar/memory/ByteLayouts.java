package dev.cellar.memory;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The value layouts Cellar reads and writes memory with: big-endian, as HBase writes every
 * multi-byte field, and unaligned, because file formats pack fields at any offset. Being {@code
 * static final}, the JIT folds them into plain loads and byte swaps.
 */
public final class ByteLayouts {

  /** A big-endian 16-bit value at any byte offset. */
  public static final ValueLayout.OfShort SHORT_BE =
      ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

  /** A big-endian 32-bit value at any byte offset. */
  public static final ValueLayout.OfInt INT_BE =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

  /** A big-endian 64-bit value at any byte offset. */
  public static final ValueLayout.OfLong LONG_BE =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

  /** A single byte. */
  public static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

  private ByteLayouts() {}
}
