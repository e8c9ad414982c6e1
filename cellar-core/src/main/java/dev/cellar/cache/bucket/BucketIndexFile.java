package dev.cellar.cache.bucket;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.cache.BlockCategory;
import dev.cellar.cache.BlockPriority;
import dev.cellar.cache.CacheableDeserializer;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persisted index of a bucket cache: which block is in which slot, so a restarted process comes
 * back warm. Written to a temporary file next to the index and renamed over it, so a crash
 * mid-write keeps the previous index.
 *
 * <p>Layout, big-endian; every section ends with the CRC32C of its bytes, so a torn or flipped file
 * is rejected as a whole:
 *
 * <pre>
 * header
 *   8   magic "CELLARBC"
 *   4   format version (1)
 *   8   engine capacity in bytes
 *   2+n engine description, UTF-8 (for example "file:/data/cache")
 *   4   number of bucket sizes, then 4 bytes each
 *   4   number of deserializer names, then for each 2+n UTF-8 name
 *   8   number of entries
 *   4   CRC32C of the header
 * chunks, each of at most 10,000 entries, in the order given (the cache gives file and offset order)
 *   4   entries in the chunk (0 ends the file)
 *       per entry: 2+n file name UTF-8, 8 block offset, 8 slot offset, 4 content length,
 *       2 deserializer index, 1 category ordinal, 1 priority ordinal, 8 access counter,
 *       4 checksum of the stored bytes (SlotChecksum)
 *   4   CRC32C of the chunk
 * </pre>
 *
 * <p>Restoring checks the header against the running configuration (capacity, engine, bucket sizes)
 * and rebuilds the allocator from the entries; entries the allocator rejects (overlaps, a slot of
 * the wrong class) or whose deserializer is no longer registered are dropped one by one. Any other
 * problem discards the whole index: the cache starts empty, and nothing stale is served. Stateless.
 */
final class BucketIndexFile {

  private static final Logger LOG = LoggerFactory.getLogger(BucketIndexFile.class);

  static final byte[] MAGIC = "CELLARBC".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int CHUNK_ENTRIES = 10_000;

  private BucketIndexFile() {}

  /** An entry as persisted. */
  record StoredEntry(
      BlockCacheKey key,
      long offset,
      int contentLength,
      CacheableDeserializer deserializer,
      BlockCategory category,
      BlockPriority priority,
      long accessCounter,
      int checksum) {

    int storedLength() {
      return contentLength + deserializer.metadataLength();
    }
  }

  /** A restored index: the allocator rebuilt from the accepted entries, and those entries. */
  record Restored(BucketAllocator allocator, List<StoredEntry> entries) {}

  /** Writes the index of {@code entries} to {@code path} through a temporary file and a rename. */
  static void write(
      Path path, long capacity, String engine, int[] bucketSizes, Collection<BucketEntry> entries)
      throws IOException {
    Path temporary = path.resolveSibling(path.getFileName() + ".tmp-" + System.currentTimeMillis());
    List<BucketEntry> snapshot = new ArrayList<>(entries);
    Map<String, Integer> deserializerIndex = new HashMap<>();
    List<String> names = new ArrayList<>();
    for (BucketEntry entry : snapshot) {
      deserializerIndex.computeIfAbsent(
          entry.deserializer.name(),
          name -> {
            names.add(name);
            return names.size() - 1;
          });
    }
    try (FileChannel channel =
        FileChannel.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      OutputStream file = Channels.newOutputStream(channel);
      CRC32C crc = new CRC32C();
      DataOutputStream out =
          new DataOutputStream(
              new CheckedOutputStream(new BufferedOutputStream(file, 1 << 16), crc));
      out.write(MAGIC);
      out.writeInt(VERSION);
      out.writeLong(capacity);
      out.writeUTF(engine);
      out.writeInt(bucketSizes.length);
      for (int size : bucketSizes) {
        out.writeInt(size);
      }
      out.writeInt(names.size());
      for (String name : names) {
        out.writeUTF(name);
      }
      out.writeLong(snapshot.size());
      endSection(out, crc);
      for (int from = 0; from < snapshot.size(); from += CHUNK_ENTRIES) {
        int to = Math.min(snapshot.size(), from + CHUNK_ENTRIES);
        out.writeInt(to - from);
        for (BucketEntry entry : snapshot.subList(from, to)) {
          out.writeUTF(entry.fileName());
          out.writeLong(entry.keyOffset());
          out.writeLong(entry.offset);
          out.writeInt(entry.contentLength);
          out.writeShort(deserializerIndex.get(entry.deserializer.name()));
          out.writeByte(entry.category.ordinal());
          out.writeByte(entry.priority().ordinal());
          out.writeLong(entry.lastAccess());
          out.writeInt(entry.checksum);
        }
        endSection(out, crc);
      }
      out.writeInt(0);
      endSection(out, crc);
      out.flush();
      channel.force(true);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
    Files.move(
        temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void endSection(DataOutputStream out, CRC32C crc) throws IOException {
    out.flush();
    int value = (int) crc.getValue();
    out.writeInt(value);
    crc.reset();
  }

  /**
   * Reads the index at {@code config.persistentPath()} for an engine of {@code capacity} bytes
   * described as {@code engine}. Returns null, after logging why, when there is no usable index;
   * the cache then starts empty.
   */
  static Restored restore(BucketCacheConfig config, String engine, long capacity) {
    Path path = config.persistentPath();
    long start = System.nanoTime();
    try {
      List<StoredEntry> entries = read(path, config, engine, capacity);
      long[] offsets = new long[entries.size()];
      int[] lengths = new int[entries.size()];
      for (int i = 0; i < offsets.length; i++) {
        offsets[i] = entries.get(i).offset();
        lengths[i] = entries.get(i).storedLength();
      }
      BitSet accepted = new BitSet(entries.size());
      BucketAllocator allocator =
          BucketAllocator.restore(capacity, config.bucketSizes(), offsets, lengths, accepted);
      List<StoredEntry> kept = new ArrayList<>(accepted.cardinality());
      for (int i = accepted.nextSetBit(0); i >= 0; i = accepted.nextSetBit(i + 1)) {
        kept.add(entries.get(i));
      }
      if (kept.size() < entries.size()) {
        LOG.warn(
            "bucket cache index {}: dropped {} of {} entries the allocator could not place",
            path,
            entries.size() - kept.size(),
            entries.size());
      }
      LOG.info(
          "bucket cache index {}: {} entries read in {} ms",
          path,
          kept.size(),
          (System.nanoTime() - start) / 1_000_000);
      return new Restored(allocator, kept);
    } catch (NoSuchFileException e) {
      LOG.info("bucket cache index {} does not exist; starting empty", path);
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.warn("bucket cache index {} is unusable; starting empty: {}", path, e.toString());
      return null;
    }
  }

  static List<StoredEntry> read(Path path, BucketCacheConfig config, String engine, long capacity)
      throws IOException {
    try (InputStream file = Files.newInputStream(path)) {
      CRC32C crc = new CRC32C();
      DataInputStream in =
          new DataInputStream(new CheckedInputStream(new BufferedInputStream(file, 1 << 16), crc));
      try {
        return readEntries(path, in, crc, config, engine, capacity);
      } catch (EOFException e) {
        throw new IOException(path + ": truncated", e);
      }
    }
  }

  private static List<StoredEntry> readEntries(
      Path path,
      DataInputStream in,
      CRC32C crc,
      BucketCacheConfig config,
      String engine,
      long capacity)
      throws IOException {
    byte[] magic = new byte[MAGIC.length];
    in.readFully(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new IOException(
          path
              + ": not a bucket cache index (magic "
              + new String(magic, StandardCharsets.ISO_8859_1)
              + ")");
    }
    int version = in.readInt();
    if (version != VERSION) {
      throw new IOException(path + ": format version " + version + ", expected " + VERSION);
    }
    long storedCapacity = in.readLong();
    String storedEngine = in.readUTF();
    int[] sizes = new int[checkedCount(path, "bucket size count", in.readInt(), 1 << 16)];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = in.readInt();
    }
    CacheableDeserializer[] deserializers =
        new CacheableDeserializer[checkedCount(path, "deserializer count", in.readInt(), 1 << 16)];
    for (int i = 0; i < deserializers.length; i++) {
      deserializers[i] = Deserializers.byName(in.readUTF());
    }
    long expectedEntries = in.readLong();
    checkSection(path, "header", in, crc);
    mustMatch(path, "engine capacity", capacity, storedCapacity);
    mustMatch(path, "engine", engine, storedEngine);
    mustMatch(path, "bucket sizes", Arrays.toString(config.bucketSizes()), Arrays.toString(sizes));
    List<StoredEntry> entries = new ArrayList<>();
    long seen = 0;
    for (int count = in.readInt(); count != 0; count = in.readInt()) {
      checkedCount(path, "chunk entry count", count, CHUNK_ENTRIES);
      for (int i = 0; i < count; i++) {
        StoredEntry entry = readEntry(path, in, deserializers);
        if (entry != null) {
          entries.add(entry);
        }
      }
      checkSection(path, "chunk " + seen / CHUNK_ENTRIES, in, crc);
      seen += count;
    }
    checkSection(path, "end", in, crc);
    if (seen != expectedEntries) {
      throw new IOException(
          path + ": header announces " + expectedEntries + " entries, found " + seen);
    }
    return entries;
  }

  private static StoredEntry readEntry(
      Path path, DataInputStream in, CacheableDeserializer[] deserializers) throws IOException {
    String fileName = in.readUTF();
    long blockOffset = in.readLong();
    long slotOffset = in.readLong();
    int contentLength = in.readInt();
    int deserializer = in.readUnsignedShort();
    int category = in.readUnsignedByte();
    int priority = in.readUnsignedByte();
    long accessCounter = in.readLong();
    int checksum = in.readInt();
    if (deserializer >= deserializers.length
        || category >= BlockCategory.values().length
        || priority >= BlockPriority.values().length
        || blockOffset < 0
        || contentLength < 0) {
      throw new IOException(path + ": malformed entry for " + fileName + "@" + blockOffset);
    }
    if (deserializers[deserializer] == null) {
      return null;
    }
    return new StoredEntry(
        new BlockCacheKey(fileName, blockOffset),
        slotOffset,
        contentLength,
        deserializers[deserializer],
        BlockCategory.values()[category],
        BlockPriority.values()[priority],
        accessCounter,
        checksum);
  }

  private static int checkedCount(Path path, String what, int count, int max) throws IOException {
    if (count < 0 || count > max) {
      throw new IOException(path + ": " + what + " " + count + " outside 0.." + max);
    }
    return count;
  }

  private static void checkSection(Path path, String section, DataInputStream in, CRC32C crc)
      throws IOException {
    int computed = (int) crc.getValue();
    int stored = in.readInt();
    if (computed != stored) {
      throw new IOException(
          path
              + ": CRC32C mismatch in the "
              + section
              + " section (stored "
              + Integer.toHexString(stored)
              + ", computed "
              + Integer.toHexString(computed)
              + ")");
    }
    crc.reset();
  }

  private static void mustMatch(Path path, String what, Object expected, Object found)
      throws IOException {
    if (!expected.equals(found)) {
      throw new IOException(path + ": persisted for " + what + " " + found + ", now " + expected);
    }
  }
}
