package dev.cellar.hfile;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import dev.cellar.schema.Compression;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The fixed-size trailer at the end of every HFile v3: where the load-on-open section and the file
 * info are, how the data index is shaped, and the file's compression and comparator.
 *
 * <pre>
 * offset        size  field
 * 0             8     magic "TRABLK\"$"
 * 8             n     FileTrailerProto, prefixed by its length as a protobuf varint
 * 8 + n         ...   zero padding (checked: every byte of the trailer is accounted for)
 * 4092          4     version: major (low 3 bytes) | minor &lt;&lt; 24, big-endian (3 | 3 &lt;&lt; 24)
 *
 * FileTrailerProto (all optional):
 *   1 file_info_offset uint64         2 load_on_open_data_offset uint64
 *   3 uncompressed_data_index_size    4 total_uncompressed_bytes uint64
 *     uint64
 *   5 data_index_count uint32         6 meta_index_count uint32
 *   7 entry_count uint64              8 num_data_index_levels uint32
 *   9 first_data_block_offset uint64 10 last_data_block_offset uint64
 *  11 comparator_class_name string   12 compression_codec uint32 (Compression code)
 *  13 encryption_key bytes (never written by Cellar; a file that has one is refused)
 * </pre>
 *
 * @param fileInfoOffset offset of the FILE_INFO block
 * @param loadOnOpenDataOffset offset of the load-on-open section (the root data index)
 * @param uncompressedDataIndexSize total uncompressed bytes of every data index block
 * @param totalUncompressedBytes uncompressed bytes of every block of the file
 * @param dataIndexCount entries in the root data index
 * @param metaIndexCount entries in the meta index
 * @param entryCount cells in the file
 * @param numDataIndexLevels levels of the data index (1 = root only)
 * @param firstDataBlockOffset offset of the first data block, or -1 if there is none
 * @param lastDataBlockOffset offset of the last data block, or -1 if there is none
 * @param comparatorClassName the comparator HBase names in the file
 * @param compression the file's compression
 * @param minorVersion the file's minor version (3 for files written now)
 */
public record Trailer(
    long fileInfoOffset,
    long loadOnOpenDataOffset,
    long uncompressedDataIndexSize,
    long totalUncompressedBytes,
    int dataIndexCount,
    int metaIndexCount,
    long entryCount,
    int numDataIndexLevels,
    long firstDataBlockOffset,
    long lastDataBlockOffset,
    String comparatorClassName,
    Compression compression,
    int minorVersion) {

  /** Bytes of a v3 trailer. */
  public static final int SIZE = 4096;

  public static final int MAJOR_VERSION = 3;

  /**
   * The minor version with shortened ("faked") index keys, which every HBase 2.x and 3.x writer
   * uses; it is the only one accepted, so no bit of the version word can change unnoticed.
   */
  public static final int MINOR_VERSION = 3;

  /**
   * The comparator name Cellar writes: the legacy name every HBase reader since 1.x maps to its
   * standard cell comparator.
   */
  public static final String COMPARATOR_NAME = "org.apache.hadoop.hbase.KeyValue$KVComparator";

  /** Comparator names HBase writes for user tables, all meaning the standard cell order. */
  private static final java.util.Set<String> KNOWN_COMPARATORS =
      java.util.Set.of(
          COMPARATOR_NAME,
          "org.apache.hadoop.hbase.CellComparator",
          "org.apache.hadoop.hbase.KeyValue$KeyComparator",
          "org.apache.hadoop.hbase.CellComparatorImpl",
          "org.apache.hadoop.hbase.InnerStoreCellComparator");

  private static final byte[] MAGIC = BlockType.TRAILER.magic();
  private static final int VERSION_OFFSET = SIZE - Integer.BYTES;

  private static final int FILE_INFO_OFFSET = 1;
  private static final int LOAD_ON_OPEN_OFFSET = 2;
  private static final int UNCOMPRESSED_INDEX_SIZE = 3;
  private static final int TOTAL_UNCOMPRESSED = 4;
  private static final int DATA_INDEX_COUNT = 5;
  private static final int META_INDEX_COUNT = 6;
  private static final int ENTRY_COUNT = 7;
  private static final int INDEX_LEVELS = 8;
  private static final int FIRST_DATA_BLOCK = 9;
  private static final int LAST_DATA_BLOCK = 10;
  private static final int COMPARATOR = 11;
  private static final int COMPRESSION = 12;
  private static final int ENCRYPTION_KEY = 13;

  /** The serialized trailer, exactly {@link #SIZE} bytes. */
  public byte[] toBytes() throws IOException {
    ByteArrayOutputStream proto = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(proto);
    out.writeUInt64(FILE_INFO_OFFSET, fileInfoOffset);
    out.writeUInt64(LOAD_ON_OPEN_OFFSET, loadOnOpenDataOffset);
    out.writeUInt64(UNCOMPRESSED_INDEX_SIZE, uncompressedDataIndexSize);
    out.writeUInt64(TOTAL_UNCOMPRESSED, totalUncompressedBytes);
    out.writeUInt32(DATA_INDEX_COUNT, dataIndexCount);
    out.writeUInt32(META_INDEX_COUNT, metaIndexCount);
    out.writeUInt64(ENTRY_COUNT, entryCount);
    out.writeUInt32(INDEX_LEVELS, numDataIndexLevels);
    out.writeUInt64(FIRST_DATA_BLOCK, firstDataBlockOffset);
    out.writeUInt64(LAST_DATA_BLOCK, lastDataBlockOffset);
    out.writeString(COMPARATOR, comparatorClassName);
    out.writeUInt32(COMPRESSION, compression.code());
    out.flush();
    byte[] message = proto.toByteArray();
    ByteBuffer trailer = ByteBuffer.allocate(SIZE);
    trailer.put(MAGIC);
    byte[] length = new byte[CodedOutputStream.computeUInt32SizeNoTag(message.length)];
    CodedOutputStream lengthOut = CodedOutputStream.newInstance(length);
    lengthOut.writeUInt32NoTag(message.length);
    lengthOut.flush();
    if (MAGIC.length + length.length + message.length > VERSION_OFFSET) {
      throw new IOException("trailer message of " + message.length + " bytes does not fit");
    }
    trailer.put(length).put(message);
    trailer.putInt(VERSION_OFFSET, MAJOR_VERSION | (MINOR_VERSION << 24));
    return trailer.array();
  }

  /**
   * Parses and validates a trailer.
   *
   * @param bytes the last {@link #SIZE} bytes of the file
   * @param file the file's name, for errors
   * @param fileSize the file's length, to check every offset against
   */
  public static Trailer parse(byte[] bytes, String file, long fileSize)
      throws CorruptHFileException {
    long base = fileSize - SIZE;
    if (bytes.length != SIZE) {
      throw new CorruptHFileException(file, base, "trailer size", SIZE, bytes.length);
    }
    ByteBuffer trailer = ByteBuffer.wrap(bytes);
    int version = trailer.getInt(VERSION_OFFSET);
    int major = version & 0x00FF_FFFF;
    int minor = version >>> 24;
    if (major != MAJOR_VERSION || minor != MINOR_VERSION) {
      throw new CorruptHFileException(
          file, base + VERSION_OFFSET, "HFile version", "3." + MINOR_VERSION, major + "." + minor);
    }
    if (!Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new CorruptHFileException(
          file,
          base,
          "trailer magic",
          "TRABLK\"$",
          new String(bytes, 0, MAGIC.length, java.nio.charset.StandardCharsets.ISO_8859_1));
    }
    Fields fields = new Fields();
    try {
      CodedInputStream in =
          CodedInputStream.newInstance(bytes, MAGIC.length, VERSION_OFFSET - MAGIC.length);
      int length = in.readRawVarint32();
      if (length < 0 || length > VERSION_OFFSET - MAGIC.length - in.getTotalBytesRead()) {
        throw new CorruptHFileException(
            file,
            base + MAGIC.length,
            "trailer message length",
            "0.." + (VERSION_OFFSET - MAGIC.length),
            length);
      }
      int messageEnd = MAGIC.length + in.getTotalBytesRead() + length;
      in.pushLimit(length);
      fields.read(in, file, base);
      for (int i = messageEnd; i < VERSION_OFFSET; i++) {
        if (bytes[i] != 0) {
          throw new CorruptHFileException(
              file, base + i, "trailer padding", "zero bytes", String.format("0x%02x", bytes[i]));
        }
      }
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptHFileException(file, base + MAGIC.length, "malformed trailer message", e);
    } catch (IOException e) {
      if (e instanceof CorruptHFileException corrupt) {
        throw corrupt;
      }
      throw new CorruptHFileException(file, base + MAGIC.length, "unreadable trailer message", e);
    }
    Trailer parsed = fields.toTrailer(minor);
    parsed.validate(file, fileSize);
    return parsed;
  }

  private void validate(String file, long fileSize) throws CorruptHFileException {
    long trailerStart = fileSize - SIZE;
    if (!KNOWN_COMPARATORS.contains(comparatorClassName)) {
      throw new CorruptHFileException(
          file,
          trailerStart,
          "trailer comparator_class_name",
          "a cell comparator name for user tables",
          comparatorClassName);
    }
    if (loadOnOpenDataOffset < 0 || loadOnOpenDataOffset >= trailerStart) {
      throw new CorruptHFileException(
          file,
          trailerStart,
          "trailer load_on_open_data_offset",
          "0.." + (trailerStart - 1),
          loadOnOpenDataOffset);
    }
    if (fileInfoOffset < loadOnOpenDataOffset || fileInfoOffset >= trailerStart) {
      throw new CorruptHFileException(
          file,
          trailerStart,
          "trailer file_info_offset",
          loadOnOpenDataOffset + ".." + (trailerStart - 1),
          fileInfoOffset);
    }
    if (numDataIndexLevels < 1 || numDataIndexLevels > 64) {
      throw new CorruptHFileException(
          file, trailerStart, "trailer num_data_index_levels", "1..64", numDataIndexLevels);
    }
    if (firstDataBlockOffset < -1
        || firstDataBlockOffset >= loadOnOpenDataOffset
        || lastDataBlockOffset < -1
        || lastDataBlockOffset >= loadOnOpenDataOffset) {
      throw new CorruptHFileException(
          file,
          trailerStart,
          "trailer data block offsets",
          "-1 or below the load-on-open offset " + loadOnOpenDataOffset,
          firstDataBlockOffset + " and " + lastDataBlockOffset);
    }
  }

  /** The trailer's fields as they are read; absent ones keep HBase's defaults. */
  private static final class Fields {
    long fileInfoOffset;
    long loadOnOpenDataOffset;
    long uncompressedDataIndexSize;
    long totalUncompressedBytes;
    int dataIndexCount;
    int metaIndexCount;
    long entryCount;
    int numDataIndexLevels = 1;
    long firstDataBlockOffset = -1;
    long lastDataBlockOffset = -1;
    String comparatorClassName = COMPARATOR_NAME;
    int compressionCode = Compression.NONE.code();

    void read(CodedInputStream in, String file, long base) throws IOException {
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        int field = WireFormat.getTagFieldNumber(tag);
        int expectedWireType =
            field == COMPARATOR || field == ENCRYPTION_KEY
                ? WireFormat.WIRETYPE_LENGTH_DELIMITED
                : WireFormat.WIRETYPE_VARINT;
        if (field <= ENCRYPTION_KEY && WireFormat.getTagWireType(tag) != expectedWireType) {
          throw new CorruptHFileException(
              file,
              base,
              "trailer field " + field + " wire type",
              expectedWireType,
              WireFormat.getTagWireType(tag));
        }
        switch (field) {
          case FILE_INFO_OFFSET -> fileInfoOffset = in.readUInt64();
          case LOAD_ON_OPEN_OFFSET -> loadOnOpenDataOffset = in.readUInt64();
          case UNCOMPRESSED_INDEX_SIZE -> uncompressedDataIndexSize = in.readUInt64();
          case TOTAL_UNCOMPRESSED -> totalUncompressedBytes = in.readUInt64();
          case DATA_INDEX_COUNT -> dataIndexCount = in.readUInt32();
          case META_INDEX_COUNT -> metaIndexCount = in.readUInt32();
          case ENTRY_COUNT -> entryCount = in.readUInt64();
          case INDEX_LEVELS -> numDataIndexLevels = in.readUInt32();
          case FIRST_DATA_BLOCK -> firstDataBlockOffset = in.readUInt64();
          case LAST_DATA_BLOCK -> lastDataBlockOffset = in.readUInt64();
          case COMPARATOR -> comparatorClassName = in.readString();
          case COMPRESSION -> compressionCode = in.readUInt32();
          case ENCRYPTION_KEY ->
              throw new CorruptHFileException(
                  file,
                  base,
                  "trailer encryption key",
                  "an unencrypted file",
                  "an encrypted file (unsupported)");
          default -> in.skipField(tag);
        }
      }
      Compression compression = Compression.fromCode(compressionCode);
      if (compression == null || !compression.isSupported()) {
        throw new CorruptHFileException(
            file,
            base,
            "trailer compression_codec",
            "NONE, GZ, SNAPPY, LZ4 or ZSTD",
            compression == null ? "unknown code " + compressionCode : compression.name());
      }
    }

    Trailer toTrailer(int minor) {
      return new Trailer(
          fileInfoOffset,
          loadOnOpenDataOffset,
          uncompressedDataIndexSize,
          totalUncompressedBytes,
          dataIndexCount,
          metaIndexCount,
          entryCount,
          numDataIndexLevels,
          firstDataBlockOffset,
          lastDataBlockOffset,
          comparatorClassName,
          Compression.fromCode(compressionCode),
          minor);
    }
  }
}
