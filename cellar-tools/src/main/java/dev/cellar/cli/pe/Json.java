package dev.cellar.cli.pe;

import dev.cellar.observe.JsonWriter;
import java.util.List;
import java.util.Map;

/**
 * Renders maps, lists, strings, numbers, booleans and nulls as JSON text (maps in their iteration
 * order). Non-finite numbers become {@code null}, which JSON has no other way to say.
 */
public final class Json {

  private Json() {}

  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, "");
    return out.append('\n').toString();
  }

  private static void write(Object value, StringBuilder out, String indent) {
    switch (value) {
      case null -> out.append("null");
      case Map<?, ?> map -> writeMap(map, out, indent);
      case List<?> list -> writeList(list, out, indent);
      case String text -> writeString(text, out);
      case Double number -> out.append(Double.isFinite(number) ? number.toString() : "null");
      case Float number -> out.append(Float.isFinite(number) ? number.toString() : "null");
      case Number number -> out.append(number);
      case Boolean bool -> out.append(bool);
      default -> writeString(value.toString(), out);
    }
  }

  private static void writeMap(Map<?, ?> map, StringBuilder out, String indent) {
    if (map.isEmpty()) {
      out.append("{}");
      return;
    }
    String inner = indent + "  ";
    out.append("{\n");
    boolean first = true;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!first) {
        out.append(",\n");
      }
      first = false;
      out.append(inner);
      writeString(String.valueOf(entry.getKey()), out);
      out.append(": ");
      write(entry.getValue(), out, inner);
    }
    out.append('\n').append(indent).append('}');
  }

  private static void writeList(List<?> list, StringBuilder out, String indent) {
    if (list.isEmpty()) {
      out.append("[]");
      return;
    }
    String inner = indent + "  ";
    out.append("[\n");
    for (int i = 0; i < list.size(); i++) {
      if (i > 0) {
        out.append(",\n");
      }
      out.append(inner);
      write(list.get(i), out, inner);
    }
    out.append('\n').append(indent).append(']');
  }

  private static void writeString(String text, StringBuilder out) {
    JsonWriter.quote(text, out);
  }
}
