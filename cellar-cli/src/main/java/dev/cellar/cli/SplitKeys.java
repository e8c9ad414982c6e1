package dev.cellar.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code --split-keys}: a comma-separated list, or {@code @FILE} with one key per line
 * (blank lines ignored). A key is UTF-8 text in which {@code \xNN} stands for the byte NN, as
 * HBase's shell and {@code Bytes.toStringBinary} write binary keys. Stateless.
 */
final class SplitKeys {

  private SplitKeys() {}

  /**
   * The keys {@code spec} names, in the order given.
   *
   * @throws IllegalArgumentException naming a malformed escape or an unreadable file
   */
  static List<byte[]> parse(String spec) {
    List<String> texts;
    if (spec.startsWith("@")) {
      Path file = Path.of(spec.substring(1));
      try {
        texts = Files.readAllLines(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new IllegalArgumentException("--split-keys: " + FileFailures.describe(e));
      }
    } else {
      texts = List.of(spec.split(","));
    }
    List<byte[]> keys = new ArrayList<>();
    for (String text : texts) {
      if (!text.isBlank()) {
        keys.add(unescape(text.strip()));
      }
    }
    return keys;
  }

  private static byte[] unescape(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < utf8.length; i++) {
      if (utf8[i] == '\\' && i + 1 < utf8.length && utf8[i + 1] == 'x') {
        if (i + 4 > utf8.length) {
          throw new IllegalArgumentException(
              "--split-keys: '" + text + "' ends inside a \\x" + " escape");
        }
        String hex = new String(utf8, i + 2, 2, StandardCharsets.US_ASCII);
        try {
          out.write(Integer.parseInt(hex, 16));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "--split-keys: '" + text + "' has \\x" + hex + ", not two hex digits");
        }
        i += 3;
      } else {
        out.write(utf8[i]);
      }
    }
    return out.toByteArray();
  }
}
