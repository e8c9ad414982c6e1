package dev.cellar.cli.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one line of the HBase shell's syntax (a Ruby subset): a command name, then arguments
 * separated by commas (parentheses around them optional): strings in single or double quotes (with
 * {@code \\xNN}, {@code \\n}, {@code \\t}, {@code \\\\} and quote escapes in double quotes),
 * integers, {@code true}/{@code false}, bare constants ({@code VERSIONS}), arrays {@code [a, b]}
 * and hashes {@code {KEY => value, ...}}, whose braces may be left out when the hash ends the line,
 * as in Ruby. Values come out as {@link String}, {@link Long}, {@link Boolean}, {@link List} and
 * {@link Map} (insertion-ordered). A mistake is a {@link ShellException} naming the column where it
 * is. Stateless per line; not thread-safe.
 */
final class ShellParser {

  /** A parsed line: the command's name and its arguments. */
  record Line(String command, List<Object> arguments) {}

  private final String text;
  private int position;

  private ShellParser(String text) {
    this.text = text;
  }

  /** The command on {@code line}, or null for a blank line or a comment. */
  static Line parse(String line) {
    ShellParser parser = new ShellParser(line);
    parser.skipSpace();
    if (parser.atEnd() || parser.peek() == '#') {
      return null;
    }
    String command = parser.word();
    if (command.isEmpty()) {
      throw parser.error("a command name");
    }
    parser.skipSpace();
    boolean parenthesized = !parser.atEnd() && parser.peek() == '(';
    if (parenthesized) {
      parser.position++;
    }
    List<Object> arguments = new ArrayList<>();
    parser.skipSpace();
    while (!parser.atEnd() && parser.peek() != ')' && parser.peek() != '#') {
      Object value = parser.value();
      parser.skipSpace();
      if (parser.text.startsWith("=>", parser.position)) {
        arguments.add(parser.trailingHash(value));
        break;
      }
      arguments.add(value);
      if (!parser.atEnd() && parser.peek() == ',') {
        parser.position++;
        parser.skipSpace();
      } else {
        break;
      }
    }
    if (parenthesized) {
      parser.expect(')');
    }
    parser.skipSpace();
    if (!parser.atEnd() && parser.peek() != '#') {
      throw parser.error("a comma or the end of the line");
    }
    return new Line(command, arguments);
  }

  /**
   * The hash of {@code key => value, ...} pairs without braces that ends an argument list (as Ruby
   * reads {@code alter 't', NAME => 'f', VERSIONS => 5}), from just after its first key.
   */
  private Map<String, Object> trailingHash(Object firstKey) {
    Map<String, Object> map = new LinkedHashMap<>();
    Object key = firstKey;
    while (true) {
      if (!text.startsWith("=>", position)) {
        throw error("'=>' (the arguments after a 'KEY => value' pair must be pairs too)");
      }
      position += 2;
      skipSpace();
      map.put(String.valueOf(key), value());
      skipSpace();
      if (atEnd() || peek() != ',') {
        return map;
      }
      position++;
      skipSpace();
      key = value();
      skipSpace();
    }
  }

  private Object value() {
    if (atEnd()) {
      throw error("a value");
    }
    char c = peek();
    if (c == '\'' || c == '"') {
      return string();
    }
    if (c == '[') {
      position++;
      List<Object> list = new ArrayList<>();
      skipSpace();
      while (!atEnd() && peek() != ']') {
        list.add(value());
        skipSpace();
        if (!atEnd() && peek() == ',') {
          position++;
          skipSpace();
        }
      }
      expect(']');
      return list;
    }
    if (c == '{') {
      position++;
      Map<String, Object> map = new LinkedHashMap<>();
      skipSpace();
      while (!atEnd() && peek() != '}') {
        Object key = value();
        skipSpace();
        if (!text.startsWith("=>", position)) {
          throw error("'=>'");
        }
        position += 2;
        skipSpace();
        map.put(String.valueOf(key), value());
        skipSpace();
        if (!atEnd() && peek() == ',') {
          position++;
          skipSpace();
        }
      }
      expect('}');
      return map;
    }
    if (c == '-' || Character.isDigit(c)) {
      int start = position++;
      while (!atEnd() && (Character.isDigit(peek()) || peek() == '_')) {
        position++;
      }
      try {
        return Long.parseLong(text.substring(start, position).replace("_", ""));
      } catch (NumberFormatException e) {
        position = start;
        throw error("a number");
      }
    }
    String word = word();
    if (word.isEmpty()) {
      throw error("a value");
    }
    return switch (word) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      case "nil" -> "";
      default -> word;
    };
  }

  private String string() {
    char quote = text.charAt(position++);
    StringBuilder out = new StringBuilder();
    while (true) {
      if (atEnd()) {
        throw error("the closing " + quote);
      }
      char c = text.charAt(position++);
      if (c == quote) {
        return out.toString();
      }
      if (c == '\\' && !atEnd()) {
        char next = text.charAt(position++);
        if (quote == '\'') {
          out.append(next == '\'' || next == '\\' ? String.valueOf(next) : "\\" + next);
        } else {
          switch (next) {
            case 'n' -> out.append('\n');
            case 't' -> out.append('\t');
            case 'x' -> {
              if (position + 2 > text.length()) {
                throw error("two hex digits after \\x");
              }
              try {
                out.append(
                    ShellBytes.escapedByte(
                        Integer.parseInt(text.substring(position, position + 2), 16)));
              } catch (NumberFormatException e) {
                throw error("two hex digits after \\x");
              }
              position += 2;
            }
            default -> out.append(next);
          }
        }
      } else {
        out.append(c);
      }
    }
  }

  private String word() {
    int start = position;
    while (!atEnd()
        && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == ':' || peek() == '.')) {
      position++;
    }
    return text.substring(start, position);
  }

  private void expect(char c) {
    if (atEnd() || peek() != c) {
      throw error("'" + c + "'");
    }
    position++;
  }

  private void skipSpace() {
    while (!atEnd() && Character.isWhitespace(peek())) {
      position++;
    }
  }

  private boolean atEnd() {
    return position >= text.length();
  }

  private char peek() {
    return text.charAt(position);
  }

  private ShellException error(String expected) {
    String found = atEnd() ? "the end of the line" : "'" + peek() + "'";
    return new ShellException(
        "syntax error at column " + (position + 1) + ": expected " + expected + ", found " + found);
  }
}
