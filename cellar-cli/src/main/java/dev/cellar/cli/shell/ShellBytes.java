package dev.cellar.cli.shell;

import dev.cellar.cell.Bytes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Between the shell's strings and bytes, as HBase's shell has them: text is UTF-8, and a byte
 * written {@code \xNN} in a double-quoted string is that byte. The parser keeps such a byte as a
 * character of a private-use range ({@code U+F700 + byte}), which {@link #of} turns back into the
 * byte; output shows bytes as HBase's {@code Bytes.toStringBinary} does (printable ASCII as is,
 * others as {@code \xNN}). Stateless.
 */
final class ShellBytes {

  private static final char ESCAPED = 0xF700;

  private ShellBytes() {}

  /** The character standing for the byte {@code value} written {@code \xNN}. */
  static char escapedByte(int value) {
    return (char) (ESCAPED + value);
  }

  static byte[] of(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    StringBuilder run = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= ESCAPED && c <= ESCAPED + 0xFF) {
        out.writeBytes(run.toString().getBytes(StandardCharsets.UTF_8));
        run.setLength(0);
        out.write(c - ESCAPED);
      } else {
        run.append(c);
      }
    }
    out.writeBytes(run.toString().getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  static String show(byte[] bytes) {
    return Bytes.toStringBinary(bytes);
  }
}
