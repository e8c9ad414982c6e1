package dev.cellar.server.catalog;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The order of hbase:meta's rows, as HBase's MetaCellComparator defines it: a row is {@code
 * table[,startKey,regionId...]}; the part before the first {@code ,} compares first (a row without
 * a comma sorts before rows of the same table with one), then the part up to the last {@code ,},
 * then what follows it, each part as unsigned bytes. This is why a reversed scan starting at {@code
 * table,row,99999999999999} finds the region holding {@code row}.
 */
public final class MetaKeys {

  public static final Comparator<byte[]> ORDER = MetaKeys::compare;

  private static final byte DELIMITER = ',';

  private MetaKeys() {}

  public static int compare(byte[] left, byte[] right) {
    int leftFirst = indexOf(left, 0);
    int rightFirst = indexOf(right, 0);
    int result =
        Arrays.compareUnsigned(
            left,
            0,
            leftFirst < 0 ? left.length : leftFirst,
            right,
            0,
            rightFirst < 0 ? right.length : rightFirst);
    if (result != 0) {
      return result;
    }
    if (leftFirst < 0 || rightFirst < 0) {
      return Boolean.compare(leftFirst >= 0, rightFirst >= 0);
    }
    int leftLast = lastIndexOf(left, leftFirst + 1);
    int rightLast = lastIndexOf(right, rightFirst + 1);
    result =
        Arrays.compareUnsigned(
            left,
            leftFirst + 1,
            leftLast < 0 ? left.length : leftLast,
            right,
            rightFirst + 1,
            rightLast < 0 ? right.length : rightLast);
    if (result != 0) {
      return result;
    }
    int leftTail = leftLast < 0 ? left.length : leftLast + 1;
    int rightTail = rightLast < 0 ? right.length : rightLast + 1;
    return Arrays.compareUnsigned(left, leftTail, left.length, right, rightTail, right.length);
  }

  private static int indexOf(byte[] bytes, int from) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] == DELIMITER) {
        return i;
      }
    }
    return -1;
  }

  private static int lastIndexOf(byte[] bytes, int from) {
    for (int i = bytes.length - 1; i >= from; i--) {
      if (bytes[i] == DELIMITER) {
        return i;
      }
    }
    return -1;
  }
}
