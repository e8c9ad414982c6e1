package dev.cellar.store;

import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.Storage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's file set: which HFiles of each family are live, and up to which log id each family is
 * flushed, kept as an append-only log of edits in {@value #FILE_NAME} in the table's directory.
 * Only the manifest says what is live: a file in a family directory that it does not list (the
 * output of a flush or compaction that a crash interrupted before its record, or a compaction
 * input whose deletion a crash interrupted) is deleted when the table opens.
 *
 * <p><b>Layout.</b>
 *
 * <pre>
 * file    := magic "CELLARMF" (8 bytes), then records
 * record  := payloadLength u32 | crc32c(payload) u32 | payload
 * payload := version u8 (1) | editCount u16 | edit*
 * edit    := family (u16 length, UTF-8) | flushedWalId i64 (-1: unchanged)
 *            | addedCount u16 | name (u16 length, UTF-8)* | removedCount u16 | name*
 * </pre>
 *
 * All integers big-endian. One record is one atomic change of the file set: a flush adds one file
 * per family and raises their flushed ids, a compaction adds its output and removes its inputs.
 *
 * <p><b>Durability.</b> {@link #append} writes the record and forces it before returning; the
 * caller changes the file set in memory only afterwards, and deletes a removed file only after.
 * A flush or compaction first renames its file into the family directory and forces the directory
 * (see {@link StoreFileWriter}), so a recorded file exists after a power loss.
 *
 * <p><b>Recovery.</b> {@link #open} reads every record. A last record cut short or failing its
 * checksum with nothing after it is a write a crash interrupted, never acknowledged, and is
 * dropped; a damaged record with more after it fails the open with a {@link
 * CorruptManifestException} naming the file and offset. Then the manifest is rewritten as one
 * record of the whole state (to {@code MANIFEST.tmp}, forced, renamed over the old one, directory
 * forced), and new records are appended to that file. The same rewrite happens once {@value
 * #RECORDS_BEFORE_REWRITE} records were appended. A table without a manifest (created by an
 * earlier version) starts one listing every file in its family directories.
 *
 * <p><b>Concurrency.</b> {@link #append} and the readers of the state are synchronized: flushes
 * and compactions of different families append from different threads.
 */
final class Manifest implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Manifest.class);

  static final String FILE_NAME = "MANIFEST";
  static final byte[] MAGIC = "CELLARMF".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int RECORD_HEADER = 8;
  static final int RECORDS_BEFORE_REWRITE = 1000;
  static final long UNCHANGED = -1;

  /** One family's change in a record. */
  record Edit(String family, long flushedWalId, List<String> added, List<String> removed) {}

  /** A family's state: its live files in the order they were added, and its flushed log id. */
  static final class FamilyState {
    final Set<String> files = new LinkedHashSet<>();
    long flushedWalId;
  }

  private final Storage storage;
  private final Path directory;
  private final Map<String, FamilyState> families;
  private AppendOnlyFile out;
  private int appended;

  private Manifest(Storage storage, Path directory, Map<String, FamilyState> families) {
    this.storage = storage;
    this.directory = directory;
    this.families = families;
  }

  /**
   * Reads the manifest of the table in {@code directory} (or starts one from the family
   * directories' files), rewrites it compactly, and deletes the files of {@code familyNames}'
   * directories that it does not list.
   *
   * @throws CorruptManifestException if a record before the last is damaged, or a listed file is
   *     missing
   */
  static Manifest open(Storage storage, Path directory, List<String> familyNames)
      throws IOException {
    Path file = directory.resolve(FILE_NAME);
    Map<String, FamilyState> families = new LinkedHashMap<>();
    for (String family : familyNames) {
      families.put(family, new FamilyState());
    }
    if (storage.isFile(file)) {
      replay(file, storage.readAllBytes(file), families);
    } else {
      for (String family : familyNames) {
        for (Path path : storage.list(directory.resolve(family))) {
          if (storage.isFile(path)) {
            families.get(family).files.add(path.getFileName().toString());
          }
        }
      }
    }
    Manifest manifest = new Manifest(storage, directory, families);
    manifest.checkAndDeleteOrphans();
    manifest.rewrite();
    return manifest;
  }

  /**
   * The records of a manifest file read up to its first damage, and that damage if any.
   *
   * @param damageOffset the offset of the damaged record, or -1 if there is none
   * @param damage what is wrong with it, or null
   * @param tornTail whether the damage is a last record cut short or failing its checksum with
   *     nothing after it: a write a crash interrupted, never acknowledged
   */
  record Records(List<List<Edit>> records, long damageOffset, String damage, boolean tornTail) {}

  /**
   * Reads {@code bytes}, a manifest file's content, record by record up to the first damage.
   */
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

  private static void replay(Path file, byte[] bytes, Map<String, FamilyState> families)
      throws IOException {
    Records read = read(bytes);
    if (read.damage() != null && !read.tornTail()) {
      throw new CorruptManifestException(file, read.damageOffset(), read.damage());
    }
    if (read.damage() != null) {
      LOG.warn("manifest {}: dropping a torn last record at offset {} ({})", file,
          read.damageOffset(), read.damage());
    }
    for (List<Edit> record : read.records()) {
      apply(record, families);
    }
  }

  static void apply(List<Edit> edits, Map<String, FamilyState> families) {
    for (Edit edit : edits) {
      FamilyState state = families.get(edit.family());
      if (state == null) {
        continue;
      }
      state.files.removeAll(edit.removed());
      state.files.addAll(edit.added());
      if (edit.flushedWalId() != UNCHANGED) {
        state.flushedWalId = Math.max(state.flushedWalId, edit.flushedWalId());
      }
    }
  }

  /** Deletes unlisted files of the families' directories; fails if a listed file is missing. */
  private void checkAndDeleteOrphans() throws IOException {
    for (Map.Entry<String, FamilyState> family : families.entrySet()) {
      Path familyDirectory = directory.resolve(family.getKey());
      for (String name : family.getValue().files) {
        if (!storage.isFile(familyDirectory.resolve(name))) {
          throw new CorruptManifestException(directory.resolve(FILE_NAME), 0,
              "lists file " + familyDirectory.resolve(name) + ", which is missing");
        }
      }
      for (Path path : storage.list(familyDirectory)) {
        if (storage.isFile(path)
            && !family.getValue().files.contains(path.getFileName().toString())) {
          LOG.info("deleting {}: not in the table's manifest (a flush or compaction a crash"
              + " interrupted, or an input it retired)", path);
          storage.deleteIfExists(path);
        }
      }
    }
  }

  /** The live files of {@code family}, in the order they were added. */
  synchronized List<String> files(String family) {
    return List.copyOf(families.get(family).files);
  }

  /** The log id up to which {@code family} is flushed, as recorded. */
  synchronized long flushedWalId(String family) {
    return families.get(family).flushedWalId;
  }

  /**
   * Starts tracking a new family with no files, flushed up to {@code flushedWalId} (log entries up
   * to it belong to families the table had before), and records it durably.
   *
   * @throws IllegalArgumentException if the manifest tracks the family already
   */
  synchronized void addFamily(String family, long flushedWalId) throws IOException {
    if (families.containsKey(family)) {
      throw new IllegalArgumentException("manifest of " + directory + " has family " + family
          + " already");
    }
    families.put(family, new FamilyState());
    try {
      append(List.of(new Edit(family, flushedWalId, List.of(), List.of())));
    } catch (IOException | RuntimeException e) {
      families.remove(family);
      throw e;
    }
  }

  /**
   * Records that {@code family} lost every file (it was deleted from the table) and stops tracking
   * it: should a family of that name be added again, replaying this file starts it empty.
   */
  synchronized void dropFamily(String family) throws IOException {
    FamilyState state = families.get(family);
    if (state == null) {
      return;
    }
    append(List.of(new Edit(family, UNCHANGED, List.of(), List.copyOf(state.files))));
    families.remove(family);
  }

  /**
   * Records {@code edits} as one record and forces it; only then does the state change.
   *
   * @throws IOException if the write or force failed: the state is unchanged, and the manifest
   *     fails for good (a failed force may have lost pages a retry would not report)
   */
  synchronized void append(List<Edit> edits) throws IOException {
    if (out == null) {
      throw new IOException("manifest " + directory.resolve(FILE_NAME)
          + " failed earlier or is closed; reopen the database");
    }
    byte[] record = encodeRecord(edits);
    try {
      out.append(record, 0, record.length);
      out.sync();
    } catch (IOException | RuntimeException e) {
      closeAfterFailure(e);
      throw e;
    }
    apply(edits, families);
    if (++appended >= RECORDS_BEFORE_REWRITE) {
      rewrite();
    }
  }

  private void closeAfterFailure(Exception cause) {
    try {
      out.close();
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
    out = null;
  }

  /**
   * Writes the whole state as one record to a new file, forces it, renames it over the manifest
   * and forces the directory; appends then go to it.
   */
  private void rewrite() throws IOException {
    List<Edit> state = new ArrayList<>();
    for (Map.Entry<String, FamilyState> family : families.entrySet()) {
      state.add(new Edit(family.getKey(), family.getValue().flushedWalId,
          List.copyOf(family.getValue().files), List.of()));
    }
    Path temporary = directory.resolve(FILE_NAME + ".tmp");
    storage.deleteIfExists(temporary);
    AppendOnlyFile next = storage.create(temporary);
    try {
      next.append(MAGIC, 0, MAGIC.length);
      byte[] record = encodeRecord(state);
      next.append(record, 0, record.length);
      next.sync();
      storage.rename(temporary, directory.resolve(FILE_NAME));
      storage.syncDirectory(directory);
    } catch (IOException | RuntimeException e) {
      try {
        next.close();
      } catch (IOException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
    if (out != null) {
      out.close();
    }
    out = next;
    appended = 0;
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

  @Override
  public synchronized void close() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
  }
}
