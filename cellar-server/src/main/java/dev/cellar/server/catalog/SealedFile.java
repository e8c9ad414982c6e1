package dev.cellar.server.catalog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The integrity trailer of the catalog's files: the content, then {@code "CSUM"} and the CRC32C of
 * the content (u32, big-endian). A flipped byte in a table's schema or state would otherwise parse
 * as another valid schema; with the trailer it is found, and the file is set aside and rebuilt from
 * the database ({@link Catalog}). A file without the trailer (written before) is taken as it is.
 * Stateless.
 */
final class SealedFile {

  private static final byte[] MAGIC = "CSUM".getBytes(StandardCharsets.US_ASCII);
  private static final int TRAILER = MAGIC.length + Integer.BYTES;

  private SealedFile() {}

  /** {@code content} followed by its trailer. */
  static byte[] seal(byte[] content) {
    CRC32C crc = new CRC32C();
    crc.update(content);
    return ByteBuffer.allocate(content.length + TRAILER)
        .put(content)
        .put(MAGIC)
        .putInt((int) crc.getValue())
        .array();
  }

  /**
   * The content of {@code bytes}, read from {@code file}: without the trailer, checked against it.
   *
   * @throws IOException naming the file if the content does not match its checksum
   */
  static byte[] open(Path file, byte[] bytes) throws IOException {
    int content = bytes.length - TRAILER;
    if (content < 0
        || !Arrays.equals(bytes, content, content + MAGIC.length, MAGIC, 0, MAGIC.length)) {
      return bytes;
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, content);
    int stored = ByteBuffer.wrap(bytes, content + MAGIC.length, Integer.BYTES).getInt();
    if (stored != (int) crc.getValue()) {
      throw new IOException(
          file
              + ": checksum mismatch (expected "
              + Integer.toHexString(stored)
              + " as stored, found "
              + Integer.toHexString((int) crc.getValue())
              + " computed)");
    }
    return Arrays.copyOf(bytes, content);
  }
}
