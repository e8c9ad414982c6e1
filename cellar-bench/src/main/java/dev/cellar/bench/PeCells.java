package dev.cellar.bench;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * Cells shaped like those HBase's PerformanceEvaluation writes: row {@code i} is {@code i} as 26
 * zero-padded decimal digits, family {@code info}, qualifier {@code 0}, one version at a fixed
 * timestamp, and a value made as PE's {@code generateData} makes it (runs of eight equal upper-case
 * letters), so that codecs see PE's compressibility. Rows of another width (zero-padded the same
 * way) give other key sizes.
 */
final class PeCells {

  static final byte[] FAMILY = ascii("info");
  static final byte[] QUALIFIER = ascii("0");
  static final long TIMESTAMP = 1_700_000_000_000L;

  /** The length of PE's runs of equal letters. */
  private static final int RUN = 8;

  /** Every cell is written with sequence id 0, whose mvcc vlong is one byte. */
  private static final int MVCC_BYTES = 1;

  private PeCells() {}

  /** PE's row width, in digits. */
  static final int ROW_LENGTH = 26;

  static byte[] row(long i) {
    return row(i, ROW_LENGTH);
  }

  /** Row {@code i} as {@code length} zero-padded digits. */
  static byte[] row(long i, int length) {
    return ascii(String.format("%0" + length + "d", i));
  }

  /** PE's value for one cell: {@code size} bytes of letter runs drawn from {@code random}. */
  static byte[] value(Random random, int size) {
    byte[] value = new byte[size];
    for (int i = 0; i < size; i += RUN) {
      Arrays.fill(value, i, Math.min(i + RUN, size), (byte) ('A' + random.nextInt(26)));
    }
    return value;
  }

  static KeyValue cell(long row, byte[] value) {
    return cell(row, ROW_LENGTH, value);
  }

  /** Row {@code row}'s cell with a row of {@code rowLength} digits. */
  static KeyValue cell(long row, int rowLength, byte[] value) {
    return KeyValue.create(row(row, rowLength), FAMILY, QUALIFIER, TIMESTAMP, CellType.PUT, value);
  }

  /** The key of row {@code i}'s cell, without a value: what a seek to that exact cell passes. */
  static KeyValue key(long i) {
    return key(i, ROW_LENGTH);
  }

  /** {@link #key(long)} with a row of {@code rowLength} digits. */
  static KeyValue key(long i, int rowLength) {
    return cell(i, rowLength, new byte[0]);
  }

  /**
   * The bytes one cell with a {@code valueSize}-byte value takes in an unencoded data block: its
   * KeyValue serialization plus its mvcc.
   */
  static int unencodedSize(int valueSize) {
    return unencodedSize(valueSize, ROW_LENGTH);
  }

  /** {@link #unencodedSize(int)} with a row of {@code rowLength} digits. */
  static int unencodedSize(int valueSize, int rowLength) {
    return cell(0, rowLength, new byte[valueSize]).length() + MVCC_BYTES;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
