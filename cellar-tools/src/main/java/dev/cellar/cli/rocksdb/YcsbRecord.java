package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.PeData;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A row of several columns as RocksDB holds it in YCSB's RocksDB binding: one value per key, the
 * fields one after the other, each as a 4-byte big-endian name length, the name (the column's
 * qualifier, as Cellar names it), a 4-byte big-endian value length and the value. A row of one
 * column is its value alone, as PE's rows are stored.
 */
final class YcsbRecord {

  private YcsbRecord() {}

  /** The stored form of a row whose columns hold {@code values}, in column order. */
  static byte[] encode(byte[][] values) {
    if (values.length == 1) {
      return values[0];
    }
    int length = 0;
    for (int column = 0; column < values.length; column++) {
      length += 2 * Integer.BYTES + PeData.qualifier(column).length + values[column].length;
    }
    ByteBuffer record = ByteBuffer.allocate(length);
    for (int column = 0; column < values.length; column++) {
      byte[] name = PeData.qualifier(column);
      record.putInt(name.length).put(name).putInt(values[column].length).put(values[column]);
    }
    return record.array();
  }

  /** The columns' values of a stored row of {@code shape}, in column order. */
  static byte[][] decode(byte[] record, RowShape shape) {
    if (shape.columns() == 1) {
      return new byte[][] {record};
    }
    ByteBuffer in = ByteBuffer.wrap(record);
    List<byte[]> values = new ArrayList<>();
    while (in.hasRemaining()) {
      int nameLength = in.getInt();
      in.position(in.position() + nameLength);
      byte[] value = new byte[in.getInt()];
      in.get(value);
      values.add(value);
    }
    return values.toArray(new byte[0][]);
  }

  /** The stored length of a row of {@code shape}. */
  static int length(RowShape shape) {
    if (shape.columns() == 1) {
      return shape.valueSize();
    }
    int length = 0;
    for (int column = 0; column < shape.columns(); column++) {
      length += 2 * Integer.BYTES + PeData.qualifier(column).length + shape.valueSize();
    }
    return length;
  }
}
