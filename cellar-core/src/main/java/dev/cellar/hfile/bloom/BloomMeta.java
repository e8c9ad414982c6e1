package dev.cellar.hfile.bloom;

import dev.cellar.cell.Bytes;
import dev.cellar.memory.Buf;
import dev.cellar.schema.BloomType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The payload of a {@code GENERAL_BLOOM_META} or {@code DELETE_FAMILY_BLOOM_META} block: the
 * bloom's totals and its chunk index. Immutable and thread-safe.
 *
 * <p>Layout (big-endian; spec 6.6), exactly as HBase's {@code CompoundBloomFilterWriter} writes it:
 *
 * <pre>
 *   off  type     field
 *    0   int32    version           always 3
 *    4   int64    totalByteSize     sum of the chunks' byte sizes after folding
 *   12   int32    hashCount         the same for every chunk
 *   16   int32    hashType          0 jenkins, 1 murmur, 2 murmur3
 *   20   int64    totalKeyCount     keys added to all chunks
 *   28   int64    totalMaxKeys      sum of the chunks' maxKeys after folding
 *   36   int32    numChunks
 *   40   HVINT    comparator name length, then the name in ASCII:
 *                 "org.apache.hadoop.hbase.CellComparatorImpl" for ROWCOL, empty otherwise
 *   ..   numChunks root-format index entries (see {@link ChunkIndex})
 * </pre>
 *
 * <p>Nothing follows the index. HBase writes the block only for a bloom that got at least one key.
 *
 * <p>Decoding checks every field: the version, non-negative totals no smaller than the chunk count,
 * at least one chunk and no more than the bytes left can hold, a hash count of 1..{@value
 * #MAX_HASH_COUNT}, a known hash type, a comparator name that fits the bloom type (the names older
 * HBase versions wrote are accepted), a well-formed ascending index and no trailing bytes.
 *
 * @param totalByteSize sum of the chunks' byte sizes
 * @param hashCount hash functions per key
 * @param hashType the hash function
 * @param totalKeyCount keys in all chunks
 * @param totalMaxKeys sum of the chunks' capacities
 * @param index the chunk index, whose order decides the comparator name
 */
record BloomMeta(
    long totalByteSize,
    int hashCount,
    HashType hashType,
    long totalKeyCount,
    long totalMaxKeys,
    ChunkIndex index) {

  /** The only bloom meta version HBase 2 and 3 write and read. */
  static final int VERSION = 3;

  /** Bytes before the comparator name. */
  static final int FIXED_SIZE = 40;

  /**
   * Largest hash count accepted. The sizing formula yields at most about 300 for any positive float
   * error rate and any chunk size (about 150 once a chunk holds a few keys), so more means
   * corruption, and would make every probe slow.
   */
  static final int MAX_HASH_COUNT = 1024;

  /** Longest comparator name accepted. */
  static final int MAX_COMPARATOR_NAME_LENGTH = 1024;

  /** What HBase 2 and 3 write for ROWCOL blooms. */
  static final String CELL_COMPARATOR_NAME = "org.apache.hadoop.hbase.CellComparatorImpl";

  private static final Set<String> KEYVALUE_COMPARATOR_NAMES =
      Set.of(
          CELL_COMPARATOR_NAME,
          "org.apache.hadoop.hbase.InnerStoreCellComparator",
          "org.apache.hadoop.hbase.CellComparator",
          "org.apache.hadoop.hbase.KeyValue$KVComparator",
          "org.apache.hadoop.hbase.KeyValue$KeyComparator");

  private static final Set<String> RAW_BYTES_COMPARATOR_NAMES =
      Set.of(
          "",
          "org.apache.hadoop.hbase.KeyValue$RawBytesComparator",
          "org.apache.hadoop.hbase.util.Bytes$ByteArrayComparator");

  /** The comparator name written for an index of this order. */
  private static String comparatorName(KeyOrder order) {
    return order == KeyOrder.KEYVALUE_KEYS ? CELL_COMPARATOR_NAME : "";
  }

  /** The payload bytes. */
  byte[] encode() {
    byte[] name = comparatorName(index.order()).getBytes(StandardCharsets.US_ASCII);
    int size = FIXED_SIZE + Bytes.vlongSize(name.length) + name.length + index.encodedSize();
    ByteBuffer out = ByteBuffer.allocate(size);
    out.putInt(VERSION);
    out.putLong(totalByteSize);
    out.putInt(hashCount);
    out.putInt(hashType.code());
    out.putLong(totalKeyCount);
    out.putLong(totalMaxKeys);
    out.putInt(index.count());
    int position = out.position();
    out.position(position + Bytes.writeVLong(out.array(), position, name.length));
    out.put(name);
    index.encode(out);
    return out.array();
  }

  /**
   * Parses and validates a payload for a bloom of {@code type}.
   *
   * @throws CorruptBloomException naming the first field that fails a check
   */
  static BloomMeta decode(Buf payload, BloomType type) {
    KeyOrder order = KeyOrder.of(type);
    PayloadCursor in = new PayloadCursor(payload);
    int version = in.readInt("version");
    if (version != VERSION) {
      throw new CorruptBloomException(
          "version", 0, Integer.toString(VERSION), Integer.toString(version));
    }
    int byteSizeAt = in.position();
    long totalByteSize = nonNegative("totalByteSize", in.readLong("totalByteSize"), byteSizeAt);
    int at = in.position();
    int hashCount = in.readInt("hashCount");
    if (hashCount < 1 || hashCount > MAX_HASH_COUNT) {
      throw new CorruptBloomException(
          "hashCount", at, "1.." + MAX_HASH_COUNT, Integer.toString(hashCount));
    }
    at = in.position();
    int hashCode = in.readInt("hashType");
    HashType hashType = HashType.find(hashCode);
    if (hashType == null) {
      throw new CorruptBloomException(
          "hashType", at, "0 (jenkins), 1 (murmur) or 2 (murmur3)", Integer.toString(hashCode));
    }
    int keyCountAt = in.position();
    long totalKeyCount = nonNegative("totalKeyCount", in.readLong("totalKeyCount"), keyCountAt);
    int maxKeysAt = in.position();
    long totalMaxKeys = nonNegative("totalMaxKeys", in.readLong("totalMaxKeys"), maxKeysAt);
    at = in.position();
    int numChunks = in.readInt("numChunks");
    if (numChunks < 1) {
      throw new CorruptBloomException(
          "numChunks",
          at,
          "at least 1 (the block exists only for a bloom with keys)",
          Integer.toString(numChunks));
    }
    checkComparatorName(in, order);
    int maxChunks = in.remaining() / ChunkIndex.MIN_ENTRY_SIZE;
    if (numChunks > maxChunks) {
      throw new CorruptBloomException(
          "numChunks",
          at,
          "at most " + maxChunks + " (what the " + in.remaining() + " index bytes can hold)",
          Integer.toString(numChunks));
    }
    atLeastChunks("totalByteSize", byteSizeAt, totalByteSize, numChunks);
    atLeastChunks("totalKeyCount", keyCountAt, totalKeyCount, numChunks);
    atLeastChunks("totalMaxKeys", maxKeysAt, totalMaxKeys, numChunks);
    ChunkIndex index = ChunkIndex.read(in, numChunks, order);
    if (in.remaining() != 0) {
      throw new CorruptBloomException(
          "end of payload",
          in.position(),
          "no bytes after the " + numChunks + " index entries",
          in.remaining() + " more bytes");
    }
    return new BloomMeta(totalByteSize, hashCount, hashType, totalKeyCount, totalMaxKeys, index);
  }

  private static void checkComparatorName(PayloadCursor in, KeyOrder order) {
    int at = in.position();
    long length = in.readVLong("comparator name length");
    if (length < 0 || length > Math.min(MAX_COMPARATOR_NAME_LENGTH, in.remaining())) {
      throw new CorruptBloomException(
          "comparator name length",
          at,
          "0.." + Math.min(MAX_COMPARATOR_NAME_LENGTH, in.remaining()),
          Long.toString(length));
    }
    at = in.position();
    String name =
        new String(in.readBytes("comparator name", (int) length), StandardCharsets.US_ASCII);
    Set<String> accepted =
        order == KeyOrder.KEYVALUE_KEYS ? KEYVALUE_COMPARATOR_NAMES : RAW_BYTES_COMPARATOR_NAMES;
    if (!accepted.contains(name)) {
      throw new CorruptBloomException(
          "comparator name",
          at,
          order == KeyOrder.KEYVALUE_KEYS
              ? "a KeyValue comparator (" + CELL_COMPARATOR_NAME + ") for a ROWCOL bloom"
              : "an empty name (raw byte order) for a row bloom",
          "'" + name + "'");
    }
  }

  private static long nonNegative(String field, long value, int at) {
    if (value < 0) {
      throw new CorruptBloomException(field, at, "a count >= 0", Long.toString(value));
    }
    return value;
  }

  private static void atLeastChunks(String field, int at, long value, int numChunks) {
    if (value < numChunks) {
      throw new CorruptBloomException(
          field, at, "at least numChunks (" + numChunks + ")", Long.toString(value));
    }
  }
}
