package dev.cellar.observe;

/**
 * A small streaming JSON writer into a {@link StringBuilder}: objects, arrays, names and values,
 * with commas placed for the caller. Non-finite doubles are written as strings ("NaN"), as HBase's
 * JMX servlet does, since JSON has no such numbers. Not thread-safe; the caller nests calls
 * correctly (no checks beyond what keeps the commas right).
 */
public final class JsonWriter {

  private final StringBuilder out;

  /** Whether the current container already holds an element (one bit per nesting level). */
  private long hasElement;

  private int depth;
  private boolean afterName;

  public JsonWriter(StringBuilder out) {
    this.out = out;
  }

  private void beforeValue() {
    if (afterName) {
      afterName = false;
      return;
    }
    if (depth > 0) {
      long bit = 1L << (depth - 1);
      if ((hasElement & bit) != 0) {
        out.append(',');
      }
      hasElement |= bit;
    }
  }

  private JsonWriter open(char bracket) {
    beforeValue();
    out.append(bracket);
    depth++;
    hasElement &= ~(1L << (depth - 1));
    return this;
  }

  private JsonWriter close(char bracket) {
    depth--;
    out.append(bracket);
    return this;
  }

  public JsonWriter beginObject() {
    return open('{');
  }

  public JsonWriter endObject() {
    return close('}');
  }

  public JsonWriter beginArray() {
    return open('[');
  }

  public JsonWriter endArray() {
    return close(']');
  }

  public JsonWriter name(String name) {
    beforeValue();
    string(name);
    out.append(':');
    afterName = true;
    return this;
  }

  public JsonWriter value(String value) {
    beforeValue();
    if (value == null) {
      out.append("null");
    } else {
      string(value);
    }
    return this;
  }

  public JsonWriter value(long value) {
    beforeValue();
    out.append(value);
    return this;
  }

  public JsonWriter value(double value) {
    if (!Double.isFinite(value)) {
      return value(Double.toString(value));
    }
    beforeValue();
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      out.append((long) value);
    } else {
      out.append(value);
    }
    return this;
  }

  public JsonWriter value(boolean value) {
    beforeValue();
    out.append(value);
    return this;
  }

  public JsonWriter nullValue() {
    beforeValue();
    out.append("null");
    return this;
  }

  private void string(String text) {
    quote(text, out);
  }

  /**
   * Appends {@code text} to {@code out} as a JSON string: quoted, with quotes, backslashes and
   * control characters escaped, and {@code <}, {@code >} and {@code &} too, so the JSON may sit in
   * an HTML page's script.
   */
  public static void quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
