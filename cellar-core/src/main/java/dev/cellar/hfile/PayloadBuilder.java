package dev.cellar.hfile;

import dev.cellar.cell.Bytes;
import java.util.Arrays;

/**
 * A growable big-endian byte array for building block payloads on the write path. Not thread-safe.
 */
final class PayloadBuilder {

  private byte[] bytes;
  private int size;

  PayloadBuilder(int initialCapacity) {
    bytes = new byte[Math.max(16, initialCapacity)];
  }

  int size() {
    return size;
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }

  PayloadBuilder putInt(int value) {
    ensure(Integer.BYTES);
    bytes[size++] = (byte) (value >>> 24);
    bytes[size++] = (byte) (value >>> 16);
    bytes[size++] = (byte) (value >>> 8);
    bytes[size++] = (byte) value;
    return this;
  }

  PayloadBuilder putLong(long value) {
    putInt((int) (value >>> 32));
    return putInt((int) value);
  }

  /** A Hadoop WritableUtils vint/vlong. */
  PayloadBuilder putVLong(long value) {
    ensure(9);
    size += Bytes.writeVLong(bytes, size, value);
    return this;
  }

  PayloadBuilder putBytes(byte[] src) {
    return putBytes(src, 0, src.length);
  }

  PayloadBuilder putBytes(byte[] src, int offset, int length) {
    ensure(length);
    System.arraycopy(src, offset, bytes, size, length);
    size += length;
    return this;
  }

  /** The bytes written so far, in the builder's own array (valid until the next write). */
  byte[] array() {
    return bytes;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }
}
