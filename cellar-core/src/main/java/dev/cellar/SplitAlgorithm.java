package dev.cellar;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * HBase's ways of choosing a new table's split keys, with the keys HBase's {@code RegionSplitter}
 * computes, so that a table pre-split here has the regions it would have in HBase (the shell's
 * {@code NUMREGIONS} with {@code SPLITALGO}, YCSB's and PE's documented setups):
 *
 * <ul>
 *   <li>{@link #HEX_STRING} ({@code HexStringSplit}): rows that start with 8 lowercase hex digits,
 *       {@code 00000000} to {@code ffffffff}, cut into equal ranges (the last takes the remainder);
 *   <li>{@link #DECIMAL_STRING} ({@code DecimalStringSplit}): the same over 8 decimal digits,
 *       {@code 00000000} to {@code 99999999};
 *   <li>{@link #UNIFORM} ({@code UniformSplit}): arbitrary bytes, the 8-byte space cut evenly.
 * </ul>
 *
 * {@link #between} is {@code Admin.createTable(desc, startKey, endKey, numRegions)}'s. Stateless.
 */
public enum SplitAlgorithm {
  HEX_STRING("HexStringSplit"),
  DECIMAL_STRING("DecimalStringSplit"),
  UNIFORM("UniformSplit");

  private static final int DIGITS = 8;

  private final String hbaseName;

  SplitAlgorithm(String hbaseName) {
    this.hbaseName = hbaseName;
  }

  /** The name HBase's shell and tools use ({@code SPLITALGO => 'HexStringSplit'}). */
  public String hbaseName() {
    return hbaseName;
  }

  /**
   * The algorithm HBase calls {@code name} (its simple or fully qualified class name).
   *
   * @throws IllegalArgumentException naming the known ones if there is no such algorithm
   */
  public static SplitAlgorithm named(String name) {
    String simple = name.substring(name.lastIndexOf('.') + 1).trim();
    for (SplitAlgorithm algorithm : values()) {
      if (algorithm.hbaseName.equalsIgnoreCase(simple)
          || algorithm.name().equalsIgnoreCase(simple.toUpperCase(Locale.ROOT))) {
        return algorithm;
      }
    }
    throw new IllegalArgumentException(
        "unknown split algorithm '"
            + name
            + "': expected HexStringSplit, DecimalStringSplit or UniformSplit");
  }

  /**
   * The {@code regions - 1} keys that cut the algorithm's row space into {@code regions} regions.
   *
   * @throws IllegalArgumentException if {@code regions} is less than 2
   */
  public byte[][] split(int regions) {
    if (regions < 2) {
      throw new IllegalArgumentException(
          hbaseName + ": a table split into " + regions + " regions needs at least 2");
    }
    return switch (this) {
      case HEX_STRING -> numbers(16, new BigInteger("ffffffff", 16), regions);
      case DECIMAL_STRING -> numbers(10, new BigInteger("99999999"), regions);
      case UNIFORM -> {
        byte[] last = new byte[DIGITS];
        Arrays.fill(last, (byte) 0xff);
        byte[][] keys = splitRange(new byte[0], last, true, regions - 1);
        yield Arrays.copyOfRange(keys, 1, keys.length - 1);
      }
    };
  }

  /**
   * The split keys of {@code regions} regions from {@code startKey} to {@code endKey}, as HBase's
   * {@code Admin.createTable(desc, startKey, endKey, numRegions)} makes them: the first region ends
   * at {@code startKey}, the last starts at {@code endKey}, and the range between is cut evenly.
   *
   * @throws IllegalArgumentException if {@code regions} is less than 3, the start is not before the
   *     end, or the range is too narrow for that many regions
   */
  public static byte[][] between(byte[] startKey, byte[] endKey, int regions) {
    if (regions < 3) {
      throw new IllegalArgumentException("a table split between two keys needs at least 3 regions");
    }
    if (regions == 3) {
      return new byte[][] {startKey.clone(), endKey.clone()};
    }
    return splitRange(startKey, endKey, false, regions - 3);
  }

  /**
   * Keys {@code i * size} for {@code i} in 1..regions-1, {@code size = (last + 1) / regions}: the
   * numbers {@code 0..last} cut into equal parts, the last taking the remainder.
   */
  private static byte[][] numbers(int radix, BigInteger last, int regions) {
    BigInteger size = last.add(BigInteger.ONE).divide(BigInteger.valueOf(regions));
    byte[][] keys = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      String digits = size.multiply(BigInteger.valueOf(i)).toString(radix);
      keys[i - 1] =
          ("0".repeat(Math.max(0, DIGITS - digits.length())) + digits)
              .getBytes(StandardCharsets.US_ASCII);
    }
    return keys;
  }

  /**
   * {@code a}, {@code b} and {@code count} keys evenly between them (HBase's {@code Bytes.split}):
   * both padded with zero bytes to one length and read as unsigned numbers, the range (one more
   * with {@code inclusive}) divided into {@code count + 1} steps.
   */
  private static byte[][] splitRange(byte[] a, byte[] b, boolean inclusive, int count) {
    int length = Math.max(a.length, b.length);
    byte[] low = Arrays.copyOf(a, length);
    byte[] high = Arrays.copyOf(b, length);
    if (Arrays.compareUnsigned(low, high) >= 0) {
      throw new IllegalArgumentException("the start key is not before the end key");
    }
    BigInteger start = new BigInteger(1, low);
    BigInteger range = new BigInteger(1, high).subtract(start);
    if (inclusive) {
      range = range.add(BigInteger.ONE);
    }
    BigInteger steps = BigInteger.valueOf(count + 1L);
    if (range.compareTo(steps) < 0) {
      throw new IllegalArgumentException(
          "the range between the keys is too narrow for " + (count + 1) + " regions");
    }
    BigInteger interval = range.divide(steps);
    byte[][] keys = new byte[count + 2][];
    keys[0] = a.clone();
    keys[count + 1] = b.clone();
    for (int i = 1; i <= count; i++) {
      keys[i] = unsigned(start.add(interval.multiply(BigInteger.valueOf(i))), length);
    }
    return keys;
  }

  /** {@code value} as exactly {@code length} big-endian bytes. */
  private static byte[] unsigned(BigInteger value, int length) {
    byte[] bytes = value.toByteArray();
    byte[] out = new byte[length];
    int copy = Math.min(bytes.length, length);
    System.arraycopy(bytes, bytes.length - copy, out, length - copy, copy);
    return out;
  }
}
