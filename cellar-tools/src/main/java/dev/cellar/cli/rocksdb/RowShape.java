package dev.cellar.cli.rocksdb;

import dev.cellar.cli.pe.PeData;

/**
 * The shape of the rows both stores hold: a key of {@code keyLength} bytes, the row number as
 * zero-padded decimal digits (26 digits is PE's key, byte for byte), and {@code columns} values of
 * {@code valueSize} bytes each (PE: one 1000-byte value; YCSB: ten 100-byte fields).
 */
record RowShape(int keyLength, int columns, int valueSize) {

  /** The shortest key: enough digits for any row count the options allow. */
  static final int MIN_KEY_LENGTH = 10;

  /** PE's shape: a 26-byte key and one value of {@code valueSize} bytes. */
  static RowShape pe(int valueSize) {
    return new RowShape(PeData.ROW_LENGTH, 1, valueSize);
  }

  /** The key of row {@code row}, new. */
  byte[] key(long row) {
    byte[] key = new byte[keyLength];
    key(row, key);
    return key;
  }

  /** Writes the key of row {@code row} into the first {@link #keyLength} bytes of {@code into}. */
  void key(long row, byte[] into) {
    long rest = row;
    for (int i = keyLength - 1; i >= 0; i--) {
      into[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
  }

  /** The logical bytes of one row: its key and its values (what both stores are asked to hold). */
  long rowBytes() {
    return keyLength + (long) columns * valueSize;
  }
}
