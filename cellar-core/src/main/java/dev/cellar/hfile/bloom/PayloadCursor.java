package dev.cellar.hfile.bloom;

import dev.cellar.cell.Bytes;
import dev.cellar.memory.Buf;

/**
 * Reads the fields of an untrusted payload in order, checking each against the bytes left, so that
 * a short payload gives a {@link CorruptBloomException} naming the field instead of an index error.
 * Not thread-safe: one parse uses one cursor.
 */
final class PayloadCursor {

  private final Buf payload;
  private int position;

  PayloadCursor(Buf payload) {
    this.payload = payload;
  }

  int position() {
    return position;
  }

  int remaining() {
    return payload.capacity() - position;
  }

  int readInt(String field) {
    require(field, Integer.BYTES);
    int value = payload.getInt(position);
    position += Integer.BYTES;
    return value;
  }

  long readLong(String field) {
    require(field, Long.BYTES);
    long value = payload.getLong(position);
    position += Long.BYTES;
    return value;
  }

  /** Reads a Hadoop vint/vlong (HVINT). */
  long readVLong(String field) {
    require(field, 1);
    int size = Bytes.vlongSizeFromFirstByte(payload.getByte(position));
    require(field, size);
    long value = Bytes.readVLong(payload.getBytes(position, size), 0);
    position += size;
    return value;
  }

  byte[] readBytes(String field, int length) {
    require(field, length);
    byte[] bytes = payload.getBytes(position, length);
    position += length;
    return bytes;
  }

  private void require(String field, int size) {
    if (remaining() < size) {
      throw new CorruptBloomException(
          field,
          position,
          size + " more bytes",
          remaining() + " bytes before the end of the " + payload.capacity() + "-byte payload");
    }
  }
}
