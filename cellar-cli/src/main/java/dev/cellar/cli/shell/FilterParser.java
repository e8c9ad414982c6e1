package dev.cellar.cli.shell;

import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.BinaryPrefixComparator;
import dev.cellar.filter.ByteArrayComparable;
import dev.cellar.filter.ColumnPrefixFilter;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.FamilyFilter;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterAllFilter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.PrefixFilter;
import dev.cellar.filter.QualifierFilter;
import dev.cellar.filter.RowFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import dev.cellar.filter.SubstringComparator;
import dev.cellar.filter.ValueFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * HBase's filter language (the strings of the shell's {@code FILTER =>} and of HBase's ParseFilter)
 * for the filters Cellar has: {@code PrefixFilter('row')}, {@code ColumnPrefixFilter('q')}, {@code
 * PageFilter(10)}, {@code FilterAllFilter()}, {@code RowFilter(<=, 'binary:r')} and likewise
 * FamilyFilter, QualifierFilter and ValueFilter, {@code SingleColumnValueFilter('f', 'q', =,
 * 'binary:v'[, filterIfMissing, latestVersionOnly])}, combined with {@code AND}, {@code OR} (AND
 * binds tighter) and parentheses. Comparators: {@code binary:}, {@code binaryprefix:} and {@code
 * substring:}. Stateless per string.
 */
final class FilterParser {

  private final String text;
  private int position;

  private FilterParser(String text) {
    this.text = text;
  }

  static Filter parse(String text) {
    FilterParser parser = new FilterParser(text);
    Filter filter = parser.or();
    parser.skipSpace();
    if (parser.position < text.length()) {
      throw parser.error("AND, OR or the end of the filter");
    }
    return filter;
  }

  private Filter or() {
    List<Filter> any = new ArrayList<>(List.of(and()));
    while (keyword("OR")) {
      any.add(and());
    }
    return any.size() == 1 ? any.get(0) : new FilterList(FilterList.Operator.MUST_PASS_ONE, any);
  }

  private Filter and() {
    List<Filter> all = new ArrayList<>(List.of(term()));
    while (keyword("AND")) {
      all.add(term());
    }
    return all.size() == 1 ? all.get(0) : new FilterList(FilterList.Operator.MUST_PASS_ALL, all);
  }

  private Filter term() {
    skipSpace();
    if (position < text.length() && text.charAt(position) == '(') {
      position++;
      Filter inner = or();
      expect(')');
      return inner;
    }
    int start = position;
    while (position < text.length() && Character.isLetter(text.charAt(position))) {
      position++;
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
      }
    }
    expect(')');
    try {
      return filter(name, args);
    } catch (IndexOutOfBoundsException | NumberFormatException e) {
      throw new ShellException("filter " + name + args + ": wrong arguments");
    }
  }

  private static Filter filter(String name, List<String> args) {
    return switch (name) {
      case "PrefixFilter" -> new PrefixFilter(bytes(args.get(0)));
      case "ColumnPrefixFilter" -> new ColumnPrefixFilter(bytes(args.get(0)));
      case "PageFilter" -> new PageFilter(Long.parseLong(args.get(0)));
      case "FilterAllFilter" -> new FilterAllFilter();
      case "RowFilter" -> new RowFilter(operator(args.get(0)), comparator(args.get(1)));
      case "FamilyFilter" -> new FamilyFilter(operator(args.get(0)), comparator(args.get(1)));
      case "QualifierFilter" -> new QualifierFilter(operator(args.get(0)), comparator(args.get(1)));
      case "ValueFilter" -> new ValueFilter(operator(args.get(0)), comparator(args.get(1)));
      case "SingleColumnValueFilter" -> {
        SingleColumnValueFilter filter =
            new SingleColumnValueFilter(
                bytes(args.get(0)),
                bytes(args.get(1)),
                operator(args.get(2)),
                comparator(args.get(3)));
        if (args.size() > 4) {
          filter.setFilterIfMissing(Boolean.parseBoolean(args.get(4)));
        }
        if (args.size() > 5) {
          filter.setLatestVersionOnly(Boolean.parseBoolean(args.get(5)));
        }
        yield filter;
      }
      default ->
          throw new ShellException(
              "filter "
                  + name
                  + " is not one Cellar has; use"
                  + " PrefixFilter, ColumnPrefixFilter, PageFilter, FilterAllFilter, RowFilter,"
                  + " FamilyFilter, QualifierFilter, ValueFilter or SingleColumnValueFilter");
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
          throw new ShellException(
              "compare operator '" + op + "' is not one of = != <" + " <= > >=");
    };
  }

  private static ByteArrayComparable comparator(String spec) {
    int colon = spec.indexOf(':');
    String type = colon < 0 ? "" : spec.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
    String value = spec.substring(colon + 1);
    return switch (type) {
      case "binary" -> new BinaryComparator(bytes(value));
      case "binaryprefix" -> new BinaryPrefixComparator(bytes(value));
      case "substring" -> new SubstringComparator(value);
      default ->
          throw new ShellException(
              "comparator '" + spec + "' is not binary:," + " binaryprefix: or substring:");
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

  private boolean keyword(String word) {
    skipSpace();
    if (text.regionMatches(true, position, word, 0, word.length())) {
      position += word.length();
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
