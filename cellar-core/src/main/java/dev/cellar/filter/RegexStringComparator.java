package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Matches byte ranges in which a regular expression finds a match, as HBase's RegexStringComparator
 * with its JAVA engine: the range is decoded with the comparator's charset (UTF-8 unless set),
 * {@link java.util.regex.Matcher#find()} is asked, and {@link #compareTo} answers 0 for a match and
 * 1 otherwise, so only EQUAL and NOT_EQUAL make sense with it. The flags are {@link Pattern}'s
 * (HBase's default is {@link Pattern#DOTALL}). Decoding allocates a string per comparison.
 */
public final class RegexStringComparator extends ByteArrayComparable {

  private final Pattern pattern;
  private final Charset charset;

  /** A pattern with HBase's default flags ({@link Pattern#DOTALL}), decoding UTF-8. */
  public RegexStringComparator(String expression) {
    this(expression, Pattern.DOTALL, StandardCharsets.UTF_8);
  }

  /**
   * @param expression the regular expression; its UTF-8 bytes are the comparator's value
   * @param flags {@link Pattern} flags
   * @param charset how ranges are decoded before matching
   * @throws java.util.regex.PatternSyntaxException if the expression is not valid
   */
  public RegexStringComparator(String expression, int flags, Charset charset) {
    super(Bytes.toBytes(Objects.requireNonNull(expression, "expression")));
    this.pattern = Pattern.compile(expression, flags);
    this.charset = Objects.requireNonNull(charset, "charset");
  }

  public String expression() {
    return pattern.pattern();
  }

  public int flags() {
    return pattern.flags();
  }

  public Charset charset() {
    return charset;
  }

  @Override
  public int compareTo(MemorySegment bytes, long offset, int length) {
    byte[] copy = new byte[length];
    MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, offset, copy, 0, length);
    return pattern.matcher(new String(copy, charset)).find() ? 0 : 1;
  }

  @Override
  public boolean ordersBytes() {
    return false;
  }

  @Override
  public String toString() {
    return "RegexStringComparator "
        + pattern.pattern()
        + " flags="
        + pattern.flags()
        + " "
        + charset;
  }
}
