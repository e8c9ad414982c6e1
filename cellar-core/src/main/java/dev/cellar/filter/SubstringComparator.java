package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.Objects;

/**
 * Matches byte ranges that contain a string, ignoring case, as HBase's SubstringComparator: the
 * range is read as UTF-8, both sides are lower-cased in {@link Locale#ROOT}, and {@link #compareTo}
 * answers 0 for "contains" and 1 otherwise, so only EQUAL and NOT_EQUAL make sense with it.
 *
 * <p>A range of ASCII bytes, the usual case, is searched in place with ASCII case folding (for
 * ASCII, exactly what lower-casing the decoded string does) and allocates nothing; any other range
 * is decoded and lower-cased as HBase does, since Unicode case mapping can change lengths.
 */
public final class SubstringComparator extends ByteArrayComparable {

  private final String substring;
  private final boolean asciiSubstring;

  /**
   * @param substring the text to look for, in any case
   * @throws NullPointerException if {@code substring} is null
   */
  public SubstringComparator(String substring) {
    super(Bytes.toBytes(lowerCase(substring)));
    this.substring = lowerCase(substring);
    this.asciiSubstring = isAscii(valueSegment(), 0, valueLength());
  }

  private static String lowerCase(String substring) {
    return Objects.requireNonNull(substring, "substring").toLowerCase(Locale.ROOT);
  }

  @Override
  public int compareTo(MemorySegment bytes, long offset, int length) {
    return contains(bytes, offset, length) ? 0 : 1;
  }

  @Override
  public boolean ordersBytes() {
    return false;
  }

  private boolean contains(MemorySegment bytes, long offset, int length) {
    if (!isAscii(bytes, offset, length)) {
      return Bytes.toString(bytes, offset, length).toLowerCase(Locale.ROOT).contains(substring);
    }
    if (!asciiSubstring) {
      return false;
    }
    MemorySegment wanted = valueSegment();
    int wantedLength = valueLength();
    long lastStart = offset + length - wantedLength;
    for (long start = offset; start <= lastStart; start++) {
      int matched = 0;
      while (matched < wantedLength
          && lowerAscii(bytes.get(ValueLayout.JAVA_BYTE, start + matched))
              == wanted.get(ValueLayout.JAVA_BYTE, matched)) {
        matched++;
      }
      if (matched == wantedLength) {
        return true;
      }
    }
    return false;
  }

  private static boolean isAscii(MemorySegment bytes, long offset, int length) {
    for (long at = offset; at < offset + length; at++) {
      if (bytes.get(ValueLayout.JAVA_BYTE, at) < 0) {
        return false;
      }
    }
    return true;
  }

  private static byte lowerAscii(byte b) {
    return b >= 'A' && b <= 'Z' ? (byte) (b + ('a' - 'A')) : b;
  }
}
