package dev.cellar.cli.pe;

import java.nio.charset.StandardCharsets;
import java.util.random.RandomGenerator;

/**
 * The shape of HBase PerformanceEvaluation's data, byte for byte: row {@code i} is {@code i} as 26
 * zero-padded decimal digits (PE's {@code format}), families are {@code info0 .. info<n-1>},
 * qualifiers {@code 0 .. <n-1>}, and a value is PE's {@code generateData}: runs of eight equal
 * upper-case letters, the tail filled with one more letter.
 */
public final class PeData {

  /** PE's row key length. */
  public static final int ROW_LENGTH = 26;

  /** The length of PE's runs of equal letters. */
  private static final int RUN = 8;

  private PeData() {}

  /** PE's {@code format(i)}: the row key of row {@code number}. */
  public static byte[] format(long number) {
    byte[] row = new byte[ROW_LENGTH];
    format(number, row);
    return row;
  }

  /** Writes row {@code number}'s key into the first {@value #ROW_LENGTH} bytes of {@code into}. */
  public static void format(long number, byte[] into) {
    long rest = Math.abs(number);
    for (int i = ROW_LENGTH - 1; i >= 0; i--) {
      into[i] = (byte) ('0' + rest % 10);
      rest /= 10;
    }
  }

  /** The name of family {@code index}: {@code info<index>}. */
  public static String familyName(int index) {
    return "info" + index;
  }

  public static byte[] family(int index) {
    return familyName(index).getBytes(StandardCharsets.US_ASCII);
  }

  /** The qualifier of column {@code column}: its decimal digits. */
  public static byte[] qualifier(int column) {
    return Integer.toString(column).getBytes(StandardCharsets.US_ASCII);
  }

  /** PE's {@code generateData}: {@code length} bytes of letter runs drawn from {@code random}. */
  public static byte[] generateData(RandomGenerator random, int length) {
    byte[] value = new byte[length];
    int i = 0;
    for (; i < length - RUN; i += RUN) {
      byte letter = (byte) ('A' + random.nextInt(26));
      for (int j = 0; j < RUN; j++) {
        value[i + j] = letter;
      }
    }
    byte tail = (byte) ('A' + random.nextInt(26));
    for (; i < length; i++) {
      value[i] = tail;
    }
    return value;
  }
}
