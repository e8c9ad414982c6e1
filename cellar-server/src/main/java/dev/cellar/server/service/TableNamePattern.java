package dev.cellar.server.service;

import dev.cellar.server.rpc.RpcException;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A client's table-name regular expression ({@code list 'pattern.*'}, HBase's {@code listTables}
 * with a pattern), matched against the table names with a time bound: a pattern that backtracks
 * badly (a client's mistake, or an attack) costs the handler thread at most {@value #BUDGET_MILLIS}
 * ms per name before the call is refused with the pattern named, instead of holding it for seconds.
 * The bound is kept by the input the matcher reads, which checks the clock as the matcher reads
 * characters. Immutable.
 */
final class TableNamePattern {

  /** The longest one name's match may take. */
  static final long BUDGET_MILLIS = 100;

  private final String regex;
  private final Pattern pattern;

  private TableNamePattern(String regex, Pattern pattern) {
    this.regex = regex;
    this.pattern = pattern;
  }

  /**
   * The pattern {@code regex}, or null (every name) for none.
   *
   * @throws RpcException DoNotRetry naming the pattern if it does not compile
   */
  static TableNamePattern of(String regex) throws RpcException {
    if (regex == null || regex.isEmpty()) {
      return null;
    }
    try {
      return new TableNamePattern(regex, Pattern.compile(regex));
    } catch (PatternSyntaxException e) {
      throw RpcException.doNotRetry(
          "table name pattern '" + regex + "' is invalid: " + e.getDescription());
    }
  }

  /**
   * Whether {@code name} matches the whole pattern.
   *
   * @throws RpcException DoNotRetry naming the pattern if matching one name takes too long
   */
  boolean matches(String name) throws RpcException {
    try {
      return pattern
          .matcher(new Bounded(name, System.nanoTime() + BUDGET_MILLIS * 1_000_000))
          .matches();
    } catch (TooSlow e) {
      throw RpcException.doNotRetry(
          "table name pattern '"
              + regex
              + "' took more than "
              + BUDGET_MILLIS
              + " ms to match one name; give a simpler pattern");
    }
  }

  /** Thrown by {@link Bounded} past its deadline; carries no stack. */
  private static final class TooSlow extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooSlow() {
      super(null, null, false, false);
    }
  }

  /** A name as the matcher reads it, failing once the deadline has passed. */
  private record Bounded(String text, long deadlineNanos) implements CharSequence {

    @Override
    public char charAt(int index) {
      if (System.nanoTime() - deadlineNanos > 0) {
        throw new TooSlow();
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new Bounded(text.substring(start, end), deadlineNanos);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
