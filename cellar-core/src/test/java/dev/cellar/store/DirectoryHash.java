package dev.cellar.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every entry under a directory with a digest of its bytes ("dir" for a directory), to show that
 * something left a directory byte-identical. The database's {@code LOCK} file is left out: it
 * records who opened the database last, not data.
 */
public final class DirectoryHash {

  private DirectoryHash() {}

  /** Relative path to SHA-256 of the content, or "dir". */
  public static Map<String, String> of(Path root) throws IOException {
    Map<String, String> entries = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.toList()) {
        String name = root.relativize(path).toString();
        if (path.getFileName().toString().equals("LOCK")) {
          continue;
        }
        entries.put(name, Files.isDirectory(path) ? "dir" : digest(Files.readAllBytes(path)));
      }
    }
    return entries;
  }

  private static String digest(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
