package dev.cellar.store;

import dev.cellar.store.Manifest.Edit;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The bytes of a table's {@value Manifest#FILE_NAME}: writes a record of edits, and reads a file
 * record by record up to its first damage. Stateless.
 *
 * <pre>
 * file    := magic "CELLARMF" (8 bytes), then records
 * record  := payloadLength u32 | crc32c(payload) u32 | payload
 * payload := version u8 (1) | editCount u16 | edit*
 * edit    := family (u16 length, UTF-8) | flushedWalId i64 (-1: unchanged)
 *            | addedCount u16 | name (u16 length, UTF-8)* | removedCount u16 | name*
 * </pre>
 *
 * All integers big-endian.
 */
final class ManifestCodec {

  static final byte[] MAGIC = "CELLARMF".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int RECORD_HEADER = 8;

  private ManifestCodec() {}

  /**
   * The records of a manifest file read up to its first damage, and that damage if any.
   *
   * @param damageOffset the offset of the damaged record, or -1 if there is none
   * @param damage what is wrong with it, or null
   * @param tornTail whether the damage is a last record cut short or failing its checksum with
   *     nothing after it: a write a crash interrupted, never acknowledged
   */
  record Records(List<List<Edit>> records, long damageOffset, String damage, boolean tornTail) {}

  /** Reads {@code bytes}, a manifest file's content, record by record up to the first damage. */
  static Records read(byte[] bytes) {
    List<List<Edit>> records = new ArrayList<>();
    if (bytes.length < MAGIC.length
        || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      return new Records(records, 0, "not a Cellar manifest (bad magic)", false);
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    int offset = MAGIC.length;
    while (offset < bytes.length) {
      String damage = null;
      int length = -1;
      if (bytes.length - offset < RECORD_HEADER) {
        damage = "record header cut short";
      } else {
        length = in.getInt(offset);
        if (length < 0 || length > bytes.length - offset - RECORD_HEADER) {
          damage = "record of " + length + " bytes runs past the end of the file";
        } else {
          CRC32C crc = new CRC32C();
          crc.update(bytes, offset + RECORD_HEADER, length);
          if ((int) crc.getValue() != in.getInt(offset + 4)) {
            damage = "record checksum mismatch";
          }
        }
      }
      if (damage != null) {
        boolean last = length < 0 || offset + RECORD_HEADER + (long) length >= bytes.length;
        return new Records(records, offset, damage, last);
      }
      try {
        records.add(decode(ByteBuffer.wrap(bytes, offset + RECORD_HEADER, length)));
      } catch (RuntimeException e) {
        return new Records(records, offset, "undecodable record: " + e.getMessage(), false);
      }
      offset += RECORD_HEADER + length;
    }
    return new Records(records, -1, null, false);
  }

  static byte[] encodeRecord(List<Edit> edits) {
    ByteBuffer payload = ByteBuffer.allocate(encodedLength(edits));
    payload.put((byte) VERSION);
    payload.putShort(unsignedShort(edits.size(), "edits"));
    for (Edit edit : edits) {
      putString(payload, edit.family());
      payload.putLong(edit.flushedWalId());
      putNames(payload, edit.added());
      putNames(payload, edit.removed());
    }
    CRC32C crc = new CRC32C();
    crc.update(payload.array(), 0, payload.position());
    ByteBuffer record = ByteBuffer.allocate(RECORD_HEADER + payload.position());
    record.putInt(payload.position());
    record.putInt((int) crc.getValue());
    record.put(payload.array(), 0, payload.position());
    return record.array();
  }

  static List<Edit> decode(ByteBuffer payload) {
    int version = payload.get() & 0xFF;
    if (version != VERSION) {
      throw new IllegalArgumentException("version " + version + ", expected " + VERSION);
    }
    int count = payload.getShort() & 0xFFFF;
    List<Edit> edits = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String family = getString(payload);
      long flushed = payload.getLong();
      edits.add(new Edit(family, flushed, getNames(payload), getNames(payload)));
    }
    if (payload.hasRemaining()) {
      throw new IllegalArgumentException(payload.remaining() + " bytes after the last edit");
    }
    return edits;
  }

  private static int encodedLength(List<Edit> edits) {
    int length = 1 + 2;
    for (Edit edit : edits) {
      length += 2 + utf8(edit.family()).length + 8 + 2 + 2;
      for (String name : edit.added()) {
        length += 2 + utf8(name).length;
      }
      for (String name : edit.removed()) {
        length += 2 + utf8(name).length;
      }
    }
    return length;
  }

  private static void putNames(ByteBuffer out, List<String> names) {
    out.putShort(unsignedShort(names.size(), "names"));
    for (String name : names) {
      putString(out, name);
    }
  }

  private static List<String> getNames(ByteBuffer in) {
    int count = in.getShort() & 0xFFFF;
    List<String> names = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      names.add(getString(in));
    }
    return names;
  }

  private static void putString(ByteBuffer out, String value) {
    byte[] bytes = utf8(value);
    out.putShort(unsignedShort(bytes.length, "a name's bytes"));
    out.put(bytes);
  }

  private static String getString(ByteBuffer in) {
    byte[] bytes = new byte[in.getShort() & 0xFFFF];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static byte[] utf8(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }

  private static short unsignedShort(int value, String what) {
    if (value > 0xFFFF) {
      throw new IllegalArgumentException(value + " " + what + " do not fit a manifest record");
    }
    return (short) value;
  }
}
