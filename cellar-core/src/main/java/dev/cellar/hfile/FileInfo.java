package dev.cellar.hfile;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.cellar.cell.Bytes;
import dev.cellar.memory.Buf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The FILE_INFO block: a map of byte-string keys to byte-string values describing the file.
 *
 * <pre>
 * payload := "PBUF" length:varint FileInfoProto
 * FileInfoProto  := (field 1, length-delimited) BytesBytesPair, repeated
 * BytesBytesPair := (field 1) first: bytes (the key), (field 2) second: bytes (the value)
 * </pre>
 *
 * Entries are written sorted by key as unsigned bytes, as HBase writes them. Integers in values are
 * big-endian; booleans are one byte, 0xFF for true. Not thread-safe while being built; a parsed
 * instance is only read.
 */
public final class FileInfo {

  /** Serialized key of the last cell. */
  public static final String LASTKEY = "hfile.LASTKEY";

  public static final String AVG_KEY_LEN = "hfile.AVG_KEY_LEN";
  public static final String AVG_VALUE_LEN = "hfile.AVG_VALUE_LEN";
  public static final String CREATE_TIME_TS = "hfile.CREATE_TIME_TS";
  public static final String KEY_OF_BIGGEST_CELL = "hfile.KEY_OF_BIGGEST_CELL";
  public static final String LEN_OF_BIGGEST_CELL = "hfile.LEN_OF_BIGGEST_CELL";

  /** Present (int) exactly when every cell carries a tags length. */
  public static final String MAX_TAGS_LEN = "hfile.MAX_TAGS_LEN";

  public static final String TAGS_COMPRESSED = "hfile.TAGS_COMPRESSED";

  /** int 1 when every cell carries its mvcc (sequence id). */
  public static final String KEY_VALUE_VERSION = "KEY_VALUE_VERSION";

  public static final String MAX_MEMSTORE_TS_KEY = "MAX_MEMSTORE_TS_KEY";
  public static final String DATA_BLOCK_ENCODING = "DATA_BLOCK_ENCODING";
  public static final String MAX_SEQ_ID_KEY = "MAX_SEQ_ID_KEY";
  public static final String MAJOR_COMPACTION_KEY = "MAJOR_COMPACTION_KEY";

  /** 16 bytes: minimum then maximum timestamp, big-endian longs. */
  public static final String TIMERANGE = "TIMERANGE";

  public static final String EARLIEST_PUT_TS = "EARLIEST_PUT_TS";
  public static final String BLOOM_FILTER_TYPE = "BLOOM_FILTER_TYPE";
  public static final String BLOOM_FILTER_PARAM = "BLOOM_FILTER_PARAM";
  public static final String LAST_BLOOM_KEY = "LAST_BLOOM_KEY";
  public static final String DELETE_FAMILY_COUNT = "DELETE_FAMILY_COUNT";

  /** The value of {@link #KEY_VALUE_VERSION} meaning "cells carry their mvcc". */
  public static final int KEY_VALUE_VERSION_WITH_MVCC = 1;

  private static final byte[] MAGIC = "PBUF".getBytes(StandardCharsets.US_ASCII);
  private static final int MAP_ENTRY = 1;
  private static final int PAIR_FIRST = 1;
  private static final int PAIR_SECOND = 2;
  private static final byte TRUE = (byte) 0xFF;

  private final NavigableMap<byte[], byte[]> entries = new TreeMap<>(Bytes::compare);
  private final String source;
  private final long blockOffset;

  /** An empty file info to fill in for a file being written. */
  public FileInfo() {
    this("file info being written", -1);
  }

  private FileInfo(String source, long blockOffset) {
    this.source = source;
    this.blockOffset = blockOffset;
  }

  public void put(String key, byte[] value) {
    put(key.getBytes(StandardCharsets.UTF_8), value);
  }

  public void put(byte[] key, byte[] value) {
    entries.put(key.clone(), value.clone());
  }

  public void putInt(String key, int value) {
    put(key, Bytes.toBytes(value));
  }

  public void putLong(String key, long value) {
    put(key, Bytes.toBytes(value));
  }

  public void putBoolean(String key, boolean value) {
    put(key, new byte[] {value ? TRUE : 0});
  }

  /** The value of {@code key}, or null. */
  public byte[] get(String key) {
    byte[] value = entries.get(key.getBytes(StandardCharsets.UTF_8));
    return value == null ? null : value.clone();
  }

  public boolean contains(String key) {
    return entries.containsKey(key.getBytes(StandardCharsets.UTF_8));
  }

  /** The int value of {@code key}, or {@code defaultValue} if absent. */
  public int getInt(String key, int defaultValue) throws CorruptHFileException {
    byte[] value = entries.get(key.getBytes(StandardCharsets.UTF_8));
    if (value == null) {
      return defaultValue;
    }
    requireLength(key, value, Integer.BYTES);
    return Bytes.toInt(value, 0);
  }

  /** The long value of {@code key}, or {@code defaultValue} if absent. */
  public long getLong(String key, long defaultValue) throws CorruptHFileException {
    byte[] value = entries.get(key.getBytes(StandardCharsets.UTF_8));
    if (value == null) {
      return defaultValue;
    }
    requireLength(key, value, Long.BYTES);
    return Bytes.toLong(value, 0);
  }

  /** The boolean value of {@code key} (any non-zero byte is true), or {@code defaultValue}. */
  public boolean getBoolean(String key, boolean defaultValue) throws CorruptHFileException {
    byte[] value = entries.get(key.getBytes(StandardCharsets.UTF_8));
    if (value == null) {
      return defaultValue;
    }
    requireLength(key, value, 1);
    return value[0] != 0;
  }

  /** The value of {@code key} as ASCII text, or {@code defaultValue}. */
  public String getString(String key, String defaultValue) {
    byte[] value = entries.get(key.getBytes(StandardCharsets.UTF_8));
    return value == null ? defaultValue : new String(value, StandardCharsets.US_ASCII);
  }

  private void requireLength(String key, byte[] value, int length) throws CorruptHFileException {
    if (value.length != length) {
      throw new CorruptHFileException(
          source,
          blockOffset,
          "file info value of " + key,
          length + " bytes",
          value.length + " bytes");
    }
  }

  /** Every entry, keys in file order, as an unmodifiable view. */
  public Map<byte[], byte[]> entries() {
    return Collections.unmodifiableMap(entries);
  }

  /** The FILE_INFO block payload. */
  public byte[] toPayload() throws IOException {
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(message);
    for (Map.Entry<byte[], byte[]> entry : entries.entrySet()) {
      int pairSize =
          CodedOutputStream.computeByteArraySize(PAIR_FIRST, entry.getKey())
              + CodedOutputStream.computeByteArraySize(PAIR_SECOND, entry.getValue());
      out.writeTag(MAP_ENTRY, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      out.writeUInt32NoTag(pairSize);
      out.writeByteArray(PAIR_FIRST, entry.getKey());
      out.writeByteArray(PAIR_SECOND, entry.getValue());
    }
    out.flush();
    byte[] body = message.toByteArray();
    ByteArrayOutputStream payload = new ByteArrayOutputStream(body.length + 9);
    payload.write(MAGIC);
    CodedOutputStream length = CodedOutputStream.newInstance(payload);
    length.writeUInt32NoTag(body.length);
    length.flush();
    payload.write(body);
    return payload.toByteArray();
  }

  /** Parses a FILE_INFO payload read from block {@code blockOffset} of {@code file}. */
  public static FileInfo parse(Buf payload, String file, long blockOffset)
      throws CorruptHFileException {
    byte[] bytes = payload.getBytes(0, payload.capacity());
    if (bytes.length < MAGIC.length
        || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new CorruptHFileException(
          file,
          blockOffset,
          "file info magic",
          "PBUF",
          Bytes.toStringBinary(bytes, 0, Math.min(MAGIC.length, bytes.length)));
    }
    FileInfo info = new FileInfo(file, blockOffset);
    try {
      CodedInputStream in =
          CodedInputStream.newInstance(bytes, MAGIC.length, bytes.length - MAGIC.length);
      int length = in.readRawVarint32();
      if (length < 0 || length > bytes.length - MAGIC.length - in.getTotalBytesRead()) {
        throw new CorruptHFileException(
            file,
            blockOffset,
            "file info message length",
            "0.." + (bytes.length - MAGIC.length),
            length);
      }
      in.pushLimit(length);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (WireFormat.getTagFieldNumber(tag) != MAP_ENTRY) {
          in.skipField(tag);
          continue;
        }
        int pairLimit = in.pushLimit(in.readRawVarint32());
        byte[] key = null;
        byte[] value = null;
        for (int pairTag = in.readTag(); pairTag != 0; pairTag = in.readTag()) {
          switch (WireFormat.getTagFieldNumber(pairTag)) {
            case PAIR_FIRST -> key = in.readByteArray();
            case PAIR_SECOND -> value = in.readByteArray();
            default -> in.skipField(pairTag);
          }
        }
        in.popLimit(pairLimit);
        if (key == null || value == null) {
          throw new CorruptHFileException(
              file,
              blockOffset,
              "file info entry",
              "a key and a value",
              key == null ? "no key" : "no value");
        }
        info.entries.put(key, value);
      }
    } catch (CorruptHFileException e) {
      throw e;
    } catch (IOException e) {
      throw new CorruptHFileException(file, blockOffset, "malformed file info message", e);
    }
    return info;
  }
}
