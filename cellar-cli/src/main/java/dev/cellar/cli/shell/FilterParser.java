package dev.cellar.cli.shell;

import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.BinaryPrefixComparator;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.ColumnCountGetFilter;
import dev.cellar.filter.ColumnPaginationFilter;
import dev.cellar.filter.ColumnPrefixFilter;
import dev.cellar.filter.ColumnRangeFilter;
import dev.cellar.filter.ColumnValueFilter;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.DependentColumnFilter;
import dev.cellar.filter.FamilyFilter;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterAllFilter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.FirstKeyOnlyFilter;
import dev.cellar.filter.InclusiveStopFilter;
import dev.cellar.filter.MultipleColumnPrefixFilter;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.QualifierFilter;
import dev.cellar.filter.RegexStringComparator;
import dev.cellar.filter.RowFilter;
import dev.cellar.filter.SingleColumnValueExcludeFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SkipFilter;
import dev.cellar.filter.SubstringComparator;
import dev.cellar.filter.TimestampsFilter;
import dev.cellar.filter.ValueFilter;
import dev.cellar.filter.WhileMatchFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HBase's filter language, as its ParseFilter reads the shell's {@code FILTER => "..."}: filter
 * calls {@code Name(arg, ...)} whose arguments are quoted strings ({@code ''} is a quote), numbers,
 * booleans and compare operators ({@code = != < <= > >=}); {@code WHILE} before a filter (binding
 * tightest), then {@code AND}, then {@code OR}, and parentheses. Comparators are written {@code
 * 'type:value'}.
 *
 * <p>Every filter of the language runs: KeyOnlyFilter([lenAsValue]), FirstKeyOnlyFilter(),
 * PrefixFilter('p'), ColumnPrefixFilter('q'), MultipleColumnPrefixFilter('a', 'b', ...),
 * PageFilter(n), ColumnPaginationFilter(limit, offset), ColumnCountGetFilter(n),
 * InclusiveStopFilter('row'), TimestampsFilter(ts, ...), ColumnRangeFilter('min', minInclusive,
 * 'max', maxInclusive), FilterAllFilter(), RowFilter, FamilyFilter, QualifierFilter and ValueFilter
 * {@code (op, 'comparator')}, SingleColumnValueFilter and SingleColumnValueExcludeFilter('f', 'q',
 * op, 'comparator'[, filterIfMissing, latestVersionOnly]), DependentColumnFilter('f', 'q'[,
 * dropDependentColumn[, op, 'comparator']]), ColumnValueFilter('f', 'q', op, 'comparator'), WHILE
 * and SKIP, with the comparators {@code binary:}, {@code binaryprefix:}, {@code regexstring:} and
 * {@code substring:}. A name outside the language is refused in one line naming it. KeyOnlyFilter
 * keeps every cell, as Cellar's server reads it, and asks the shell to show the cells without their
 * values ({@link Parsed#values}). Stateless per string.
 */
final class FilterParser {

  /** A parsed filter and how the shell shows the values of the cells it keeps. */
  record Parsed(Filter filter, ShellOutput.Values values) {}

  private static final String HAS =
      "the language has KeyOnlyFilter, FirstKeyOnlyFilter, PrefixFilter, ColumnPrefixFilter,"
          + " MultipleColumnPrefixFilter, PageFilter, ColumnPaginationFilter,"
          + " ColumnCountGetFilter, InclusiveStopFilter, TimestampsFilter, ColumnRangeFilter,"
          + " FilterAllFilter, RowFilter, FamilyFilter, QualifierFilter, ValueFilter,"
          + " SingleColumnValueFilter, SingleColumnValueExcludeFilter, DependentColumnFilter and"
          + " ColumnValueFilter";

  private final String text;
  private int position;
  private ShellOutput.Values values = ShellOutput.Values.SHOWN;

  private FilterParser(String text) {
    this.text = text;
  }

  static Parsed parse(String text) {
    FilterParser parser = new FilterParser(text);
    Filter filter = parser.or();
    parser.skipSpace();
    if (parser.position < text.length()) {
      throw parser.error("AND, OR or the end of the filter");
    }
    return new Parsed(filter, parser.values);
  }

  private Filter or() {
    List<Filter> any = new ArrayList<>(List.of(and()));
    while (keyword("OR")) {
      any.add(and());
    }
    return any.size() == 1 ? any.get(0) : new FilterList(FilterList.Operator.MUST_PASS_ONE, any);
  }

  private Filter and() {
    List<Filter> all = new ArrayList<>(List.of(unary()));
    while (keyword("AND")) {
      all.add(unary());
    }
    return all.size() == 1 ? all.get(0) : new FilterList(FilterList.Operator.MUST_PASS_ALL, all);
  }

  private Filter unary() {
    if (keyword("WHILE")) {
      return new WhileMatchFilter(unary());
    }
    if (keyword("SKIP")) {
      return new SkipFilter(unary());
    }
    skipSpace();
    if (position < text.length() && text.charAt(position) == '(') {
      position++;
      Filter inner = or();
      expect(')');
      return inner;
    }
    return call();
  }

  private Filter call() {
    int start = position;
    while (position < text.length() && Character.isLetterOrDigit(text.charAt(position))) {
      position++;
    }
    if (start == position) {
      throw error("a filter name, WHILE or '('");
    }
    String name = text.substring(start, position);
    expect('(');
    List<String> args = new ArrayList<>();
    skipSpace();
    while (position < text.length() && text.charAt(position) != ')') {
      args.add(argument());
      skipSpace();
      if (position < text.length() && text.charAt(position) == ',') {
        position++;
        skipSpace();
      } else if (position < text.length() && text.charAt(position) != ')') {
        throw error("',' or ')'");
      }
    }
    expect(')');
    return filter(name, args);
  }

  private Filter filter(String name, List<String> args) {
    return switch (name) {
      case "KeyOnlyFilter" -> {
        arity(name, args, 0, 1);
        values =
            !args.isEmpty() && bool(name, args.get(0))
                ? ShellOutput.Values.LENGTHS
                : ShellOutput.Values.DROPPED;
        yield new FilterList(FilterList.Operator.MUST_PASS_ALL);
      }
      case "FirstKeyOnlyFilter" -> {
        arity(name, args, 0);
        yield new FirstKeyOnlyFilter();
      }
      case "FilterAllFilter" -> {
        arity(name, args, 0);
        yield new FilterAllFilter();
      }
      case "PrefixFilter" -> new PrefixFilter(bytes(one(name, args)));
      case "ColumnPrefixFilter" -> new ColumnPrefixFilter(bytes(one(name, args)));
      case "PageFilter" -> new PageFilter(number(name, one(name, args)));
      case "ColumnPaginationFilter" -> {
        arity(name, args, 2);
        yield new ColumnPaginationFilter(integer(name, args.get(0)), integer(name, args.get(1)));
      }
      case "RowFilter" -> {
        arity(name, args, 2);
        yield new RowFilter(operator(args.get(0)), comparator(args.get(1)));
      }
      case "FamilyFilter" -> {
        arity(name, args, 2);
        yield new FamilyFilter(operator(args.get(0)), comparator(args.get(1)));
      }
      case "QualifierFilter" -> {
        arity(name, args, 2);
        yield new QualifierFilter(operator(args.get(0)), comparator(args.get(1)));
      }
      case "ValueFilter" -> {
        arity(name, args, 2);
        yield new ValueFilter(operator(args.get(0)), comparator(args.get(1)));
      }
      case "SingleColumnValueFilter" -> singleColumnValue(name, args);
      case "SingleColumnValueExcludeFilter" ->
          new SingleColumnValueExcludeFilter(singleColumnValue(name, args));
      case "MultipleColumnPrefixFilter" -> {
        if (args.isEmpty()) {
          throw new ShellException("filter " + name + ": takes one prefix or more");
        }
        yield new MultipleColumnPrefixFilter(args.stream().map(FilterParser::bytes).toList());
      }
      case "ColumnCountGetFilter" -> new ColumnCountGetFilter(integer(name, one(name, args)));
      case "InclusiveStopFilter" -> new InclusiveStopFilter(bytes(one(name, args)));
      case "TimestampsFilter" ->
          new TimestampsFilter(args.stream().map(arg -> number(name, arg)).toList(), false);
      case "ColumnRangeFilter" -> {
        arity(name, args, 4);
        yield new ColumnRangeFilter(
            bytes(args.get(0)),
            bool(name, args.get(1)),
            bytes(args.get(2)),
            bool(name, args.get(3)));
      }
      case "DependentColumnFilter" -> {
        arity(name, args, 2, 3, 5);
        boolean drop = args.size() > 2 && bool(name, args.get(2));
        yield args.size() == 5
            ? new DependentColumnFilter(
                bytes(args.get(0)),
                bytes(args.get(1)),
                drop,
                operator(args.get(3)),
                comparator(args.get(4)))
            : new DependentColumnFilter(bytes(args.get(0)), bytes(args.get(1)), drop);
      }
      case "ColumnValueFilter" -> {
        arity(name, args, 4);
        yield new ColumnValueFilter(
            bytes(args.get(0)), bytes(args.get(1)), operator(args.get(2)), comparator(args.get(3)));
      }
      default ->
          throw new ShellException(
              "filter " + name + " is not one of HBase's filter language; " + HAS);
    };
  }

  /** SingleColumnValueFilter's arguments: 'f', 'q', op, 'comparator'[, ifMissing, latest]. */
  private static SingleColumnValueFilter singleColumnValue(String name, List<String> args) {
    arity(name, args, 4, 6);
    SingleColumnValueFilter filter =
        new SingleColumnValueFilter(
            bytes(args.get(0)), bytes(args.get(1)), operator(args.get(2)), comparator(args.get(3)));
    if (args.size() == 6) {
      filter.setFilterIfMissing(bool(name, args.get(4)));
      filter.setLatestVersionOnly(bool(name, args.get(5)));
    }
    return filter;
  }

  private static void arity(String name, List<String> args, int... counts) {
    for (int count : counts) {
      if (args.size() == count) {
        return;
      }
    }
    StringBuilder allowed = new StringBuilder().append(counts[0]);
    for (int i = 1; i < counts.length; i++) {
      allowed.append(" or ").append(counts[i]);
    }
    throw new ShellException(
        "filter " + name + " takes " + allowed + " arguments, was given " + args.size());
  }

  private static String one(String name, List<String> args) {
    arity(name, args, 1);
    return args.get(0);
  }

  private static long number(String name, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new ShellException("filter " + name + ": '" + value + "' is not a number");
    }
  }

  private static int integer(String name, String value) {
    long number = number(name, value);
    if (number != (int) number) {
      throw new ShellException("filter " + name + ": " + value + " is too large for an int");
    }
    return (int) number;
  }

  private static boolean bool(String name, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new ShellException("filter " + name + ": '" + value + "' is not true or false");
    };
  }

  private static CompareOperator operator(String op) {
    return switch (op) {
      case "=" -> CompareOperator.EQUAL;
      case "!=" -> CompareOperator.NOT_EQUAL;
      case "<" -> CompareOperator.LESS;
      case "<=" -> CompareOperator.LESS_OR_EQUAL;
      case ">" -> CompareOperator.GREATER;
      case ">=" -> CompareOperator.GREATER_OR_EQUAL;
      default ->
          throw new ShellException("compare operator '" + op + "' is not one of = != < <= > >=");
    };
  }

  private static ByteArrayComparable comparator(String spec) {
    int colon = spec.indexOf(':');
    String type = colon < 0 ? "" : spec.substring(0, colon);
    String value = spec.substring(colon + 1);
    return switch (type) {
      case "binary" -> new BinaryComparator(bytes(value));
      case "binaryprefix" -> new BinaryPrefixComparator(bytes(value));
      case "substring" -> new SubstringComparator(value);
      case "regexstring" -> new RegexStringComparator(value);
      default ->
          throw new ShellException(
              "comparator '"
                  + spec
                  + "' is not binary:, binaryprefix:, regexstring: or substring:");
    };
  }

  private static byte[] bytes(String text) {
    return ShellBytes.of(text);
  }

  private String argument() {
    if (text.charAt(position) == '\'') {
      StringBuilder out = new StringBuilder();
      position++;
      while (true) {
        if (position >= text.length()) {
          throw error("a closing quote");
        }
        char c = text.charAt(position++);
        if (c == '\'') {
          if (position < text.length() && text.charAt(position) == '\'') {
            out.append('\'');
            position++;
          } else {
            return out.toString();
          }
        } else {
          out.append(c);
        }
      }
    }
    int start = position;
    while (position < text.length()
        && text.charAt(position) != ','
        && text.charAt(position) != ')'
        && !Character.isWhitespace(text.charAt(position))) {
      position++;
    }
    if (start == position) {
      throw error("an argument");
    }
    return text.substring(start, position);
  }

  /** True, past it, when {@code word} (upper case, as HBase writes it) stands next as a word. */
  private boolean keyword(String word) {
    skipSpace();
    int end = position + word.length();
    if (text.startsWith(word, position)
        && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)))) {
      position = end;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    skipSpace();
    if (position >= text.length() || text.charAt(position) != c) {
      throw error("'" + c + "'");
    }
    position++;
  }

  private void skipSpace() {
    while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
      position++;
    }
  }

  private ShellException error(String expected) {
    return new ShellException(
        "filter '" + text + "': expected " + expected + " at column " + (position + 1));
  }
}
