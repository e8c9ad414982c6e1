package dev.cellar.hfile;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValueCell;
import dev.cellar.hfile.bloom.ChunkLoader;
import dev.cellar.hfile.bloom.CompoundBloomReader;
import dev.cellar.hfile.bloom.CorruptBloomException;
import dev.cellar.hfile.bloom.GeneralBloomLookup;
import dev.cellar.hfile.encoding.EncodingContext;
import dev.cellar.io.ReadOnlyFile;
import dev.cellar.io.Storage;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.ByteLayouts;
import dev.cellar.schema.BloomType;
import dev.cellar.schema.DataBlockEncoding;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * An open HFile v3: the trailer and the load-on-open section (data index root, meta index root,
 * file info, bloom metadata) are read once at open and kept in memory; every other block is read on
 * demand through one {@link BlockLoader}.
 *
 * <p>The loader starts as a direct {@link BlockReader} (a positional read into a pooled buffer,
 * checksum verification, decompression); a block cache wraps it through the {@code loaderWrapper}
 * given to {@link #open(Path, BufAllocator, UnaryOperator)}, which is the only place a cache plugs
 * in.
 *
 * <p>Thread-safe: all state is immutable after open; scanners are per-thread objects.
 */
public final class HFileReader implements AutoCloseable {

  private final Path path;
  private final String name;
  private final ReadOnlyFile file;
  private final Trailer trailer;
  private final FileInfo fileInfo;
  private final BlockReader blockReader;
  private final long blockReaderEnd;
  private final BlockLoader loader;
  private final BlockIndexReader dataIndex;
  private final RootIndex metaIndex;
  private final DataBlockEncoding encoding;
  private final EncodingContext encodingContext;
  private final byte[] lastKey;
  private final GeneralBloomLookup generalBloom;
  private final CompoundBloomReader deleteFamilyBloom;

  /** Loads bloom chunks through the block loader; the payload shares the block's count. */
  private final ChunkLoader bloomLoader;

  /** Made at the first seek into a left-out data block (a racing second one may be dropped). */
  private volatile LeftOutSeekIndexes leftOutSeekIndexes;

  private HFileReader(
      Path path,
      ReadOnlyFile file,
      BufAllocator allocator,
      UnaryOperator<BlockLoader> loaderWrapper)
      throws IOException {
    this.path = path;
    this.name = file.describe();
    this.file = file;
    long size = file.size();
    if (size < Trailer.SIZE) {
      throw new CorruptHFileException(
          name, 0, "file size", ">= " + Trailer.SIZE + " bytes for the trailer", size + " bytes");
    }
    Buf trailerBytes = Buf.wrap(new byte[Trailer.SIZE]);
    file.readFully(size - Trailer.SIZE, trailerBytes, 0, Trailer.SIZE);
    this.trailer = Trailer.parse(trailerBytes.getBytes(0, Trailer.SIZE), name, size);
    long blocksEnd = size - Trailer.SIZE;
    this.blockReaderEnd = blocksEnd;
    this.blockReader = new BlockReader(file, blocksEnd, trailer.compression(), allocator);
    BlockLoader direct = new DirectBlockLoader(blockReader);
    this.loader = loaderWrapper.apply(direct);
    this.bloomLoader =
        (offset, onDiskSize) ->
            loader.loadBlock(offset, onDiskSize, BlockType.BLOOM_CHUNK, true).payload();

    LoadOnOpen section = new LoadOnOpen(blocksEnd);
    this.dataIndex = new BlockIndexReader(section.dataRoot, trailer.numDataIndexLevels(), name);
    this.metaIndex = section.metaRoot;
    this.fileInfo = section.fileInfo;
    this.encoding = parseEncoding(fileInfo);
    boolean includesTags = fileInfo.contains(FileInfo.MAX_TAGS_LEN);
    boolean compressTags = fileInfo.getBoolean(FileInfo.TAGS_COMPRESSED, false);
    boolean includesMvcc =
        fileInfo.getInt(FileInfo.KEY_VALUE_VERSION, 0) == FileInfo.KEY_VALUE_VERSION_WITH_MVCC;
    this.encodingContext = new EncodingContext(includesTags, includesMvcc, compressTags);
    this.lastKey =
        checkedKey(
            fileInfo.get(FileInfo.LASTKEY),
            trailer.fileInfoOffset(),
            "file info " + FileInfo.LASTKEY);
    checkedKey(firstKey(), trailer.loadOnOpenDataOffset(), "first data index key");
    this.generalBloom = generalBloom(section.generalBloomMeta);
    this.deleteFamilyBloom =
        section.deleteFamilyBloomMeta == null
            ? null
            : parseBloom(section.deleteFamilyBloomMeta, BloomType.ROW);
  }

  /** Opens {@code path} reading blocks directly (no cache). */
  public static HFileReader open(Path path, BufAllocator allocator) throws IOException {
    return open(path, allocator, UnaryOperator.identity());
  }

  /**
   * Opens {@code path}; {@code loaderWrapper} receives the direct block loader and returns the
   * loader every read goes through (a block cache in front of it, typically).
   */
  public static HFileReader open(
      Path path, BufAllocator allocator, UnaryOperator<BlockLoader> loaderWrapper)
      throws IOException {
    return open(Storage.local(), path, allocator, loaderWrapper);
  }

  /**
   * Opens {@code path} on {@code storage}; see {@link #open(Path, BufAllocator, UnaryOperator)}.
   */
  public static HFileReader open(
      Storage storage, Path path, BufAllocator allocator, UnaryOperator<BlockLoader> loaderWrapper)
      throws IOException {
    ReadOnlyFile file = storage.openReadImmutable(path);
    try {
      return new HFileReader(path, file, allocator, loaderWrapper);
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
  }

  /** The general bloom, if the file has one and names its type, as HBase requires. */
  private GeneralBloomLookup generalBloom(Buf meta) throws CorruptHFileException {
    String typeName = fileInfo.getString(FileInfo.BLOOM_FILTER_TYPE, null);
    if (meta == null || typeName == null) {
      return null;
    }
    BloomType type;
    try {
      type = BloomType.parse(typeName);
    } catch (IllegalArgumentException e) {
      throw new CorruptHFileException(
          name,
          trailer.fileInfoOffset(),
          "file info " + FileInfo.BLOOM_FILTER_TYPE,
          "NONE, ROW, ROWCOL or ROWPREFIX_FIXED_LENGTH",
          typeName);
    }
    if (type == BloomType.NONE) {
      return null;
    }
    CompoundBloomReader reader = parseBloom(meta, type);
    int prefixLength = fileInfo.getInt(FileInfo.BLOOM_FILTER_PARAM, 0);
    try {
      return new GeneralBloomLookup(reader, fileInfo.get(FileInfo.LAST_BLOOM_KEY), prefixLength);
    } catch (IllegalArgumentException e) {
      throw new CorruptHFileException(
          name,
          trailer.fileInfoOffset(),
          "file info " + FileInfo.BLOOM_FILTER_PARAM,
          "a prefix length >= 1",
          prefixLength);
    }
  }

  private CompoundBloomReader parseBloom(Buf meta, BloomType type) throws CorruptHFileException {
    try {
      return CompoundBloomReader.parse(meta, type);
    } catch (CorruptBloomException e) {
      throw new CorruptHFileException(
          name, trailer.loadOnOpenDataOffset(), type + " bloom metadata", e);
    }
  }

  private DataBlockEncoding parseEncoding(FileInfo info) throws CorruptHFileException {
    String value = info.getString(FileInfo.DATA_BLOCK_ENCODING, DataBlockEncoding.NONE.name());
    try {
      return DataBlockEncoding.fromName(value);
    } catch (IllegalArgumentException e) {
      throw new CorruptHFileException(
          name,
          trailer.fileInfoOffset(),
          "file info " + FileInfo.DATA_BLOCK_ENCODING,
          "NONE, PREFIX, DIFF, FAST_DIFF or ROW_INDEX_V1",
          value);
    }
  }

  /** The blocks of the load-on-open section, in the order HBase writes them. */
  private final class LoadOnOpen {
    RootIndex dataRoot;
    RootIndex metaRoot;
    FileInfo fileInfo;
    Buf generalBloomMeta;
    Buf deleteFamilyBloomMeta;

    LoadOnOpen(long blocksEnd) throws IOException {
      long offset = trailer.loadOnOpenDataOffset();
      HFileBlock block = blockReader.readBlock(offset, -1, BlockType.ROOT_INDEX);
      try {
        dataRoot =
            RootIndex.parse(
                block.payload(), trailer.dataIndexCount(), name, offset, "data index root");
        offset += block.onDiskSizeWithHeader();
      } finally {
        block.release();
      }
      block = blockReader.readBlock(offset, -1, BlockType.ROOT_INDEX);
      try {
        metaRoot =
            RootIndex.parse(
                block.payload(), trailer.metaIndexCount(), name, offset, "meta index root");
        offset += block.onDiskSizeWithHeader();
      } finally {
        block.release();
      }
      if (offset != trailer.fileInfoOffset()) {
        throw new CorruptHFileException(
            name,
            offset,
            "file info block offset",
            trailer.fileInfoOffset() + " (from the trailer)",
            offset);
      }
      block = blockReader.readBlock(offset, -1, BlockType.FILE_INFO);
      try {
        fileInfo = FileInfo.parse(block.payload(), name, offset);
        offset += block.onDiskSizeWithHeader();
      } finally {
        block.release();
      }
      while (offset < blocksEnd) {
        block = blockReader.readBlock(offset, -1, null);
        int onDiskSize;
        try {
          byte[] payload = block.payload().getBytes(0, block.payloadSize());
          switch (block.type()) {
            case GENERAL_BLOOM_META -> generalBloomMeta = Buf.wrap(payload);
            case DELETE_FAMILY_BLOOM_META -> deleteFamilyBloomMeta = Buf.wrap(payload);
            default ->
                throw new CorruptHFileException(
                    name,
                    offset,
                    "load-on-open block type",
                    "GENERAL_BLOOM_META or DELETE_FAMILY_BLOOM_META",
                    block.type());
          }
          onDiskSize = block.onDiskSizeWithHeader();
        } finally {
          block.release();
        }
        offset += onDiskSize;
      }
    }
  }

  public Path path() {
    return path;
  }

  public Trailer trailer() {
    return trailer;
  }

  public FileInfo fileInfo() {
    return fileInfo;
  }

  public DataBlockEncoding encoding() {
    return encoding;
  }

  public EncodingContext encodingContext() {
    return encodingContext;
  }

  public long entryCount() {
    return trailer.entryCount();
  }

  /** The serialized key of the file's last cell, or null for an empty file. */
  public byte[] lastKey() {
    return lastKey == null ? null : lastKey.clone();
  }

  /** The serialized key of the file's first cell (the first root index key), or null. */
  public byte[] firstKey() {
    return dataIndex.root().count() == 0 ? null : dataIndex.root().key(0);
  }

  /** The serialized key splitting the file's data blocks in two halves, or null if empty. */
  public byte[] midKey() throws IOException {
    return checkedKey(
        dataIndex.midKey(loader), trailer.loadOnOpenDataOffset(), "mid key of the data index");
  }

  /**
   * {@code key} (null passes), once it is known to be a well-formed serialized key: lengths that
   * fit and a known type code. A file without checksums can hold any bytes there.
   */
  private byte[] checkedKey(byte[] key, long offset, String what) throws CorruptHFileException {
    if (key != null) {
      try {
        keyCell(key).type();
      } catch (IllegalArgumentException e) {
        throw new CorruptHFileException(name, offset, what, e);
      }
    }
    return key;
  }

  public BloomType bloomType() {
    return generalBloom == null ? BloomType.NONE : generalBloom.type();
  }

  /** The loader every block read goes through. */
  public BlockLoader blockLoader() {
    return loader;
  }

  /** Reads a block directly, bypassing any cache (for tools and verification). */
  public HFileBlock readBlockUncached(long offset, int onDiskSizeWithHeader, BlockType expected)
      throws IOException {
    return blockReader.readBlock(offset, onDiskSizeWithHeader, expected);
  }

  BlockIndexReader dataIndex() {
    return dataIndex;
  }

  /** The seek indexes of the data blocks the cache leaves out, kept by this file. */
  LeftOutSeekIndexes leftOutSeekIndexes() {
    LeftOutSeekIndexes indexes = leftOutSeekIndexes;
    if (indexes == null) {
      indexes = LeftOutSeekIndexes.forData(Math.max(0, trailer.lastDataBlockOffset() + 1));
      leftOutSeekIndexes = indexes;
    }
    return indexes;
  }

  /**
   * The bytes the data and meta index roots hold on the heap while the file is open (HBase's root
   * level index size).
   */
  public long rootIndexBytes() {
    return dataIndex.root().heapBytes() + metaIndex.heapBytes();
  }

  /** The bytes of the general bloom filter's chunks; 0 when the file has none. */
  public long generalBloomBytes() {
    return generalBloom == null ? 0 : generalBloom.byteSize();
  }

  /** Entries of the data index root, for tools. */
  public int dataIndexRootEntries() {
    return dataIndex.root().count();
  }

  public int dataIndexLevels() {
    return dataIndex.levels();
  }

  /**
   * The META block named {@code name}, holding one reference the caller releases, or null if the
   * file has none by that name.
   */
  public HFileBlock metaBlock(String blockName) throws IOException {
    int entry = metaIndex.find(blockName.getBytes(StandardCharsets.UTF_8));
    if (entry < 0) {
      return null;
    }
    return loader.loadBlock(
        metaIndex.offset(entry), metaIndex.onDiskSize(entry), BlockType.META, true);
  }

  /**
   * False only if the general bloom filter proves the file holds no cell of {@code row} (and, for
   * ROWCOL, {@code qualifier}); true when it may, or when the file has no bloom.
   */
  public boolean mightContain(byte[] row, byte[] qualifier) throws IOException {
    if (trailer.entryCount() == 0) {
      return false;
    }
    if (generalBloom == null) {
      return true;
    }
    if (generalBloom.type() == BloomType.ROWCOL) {
      return qualifier == null || generalBloom.mightContainRowColumn(row, qualifier, bloomLoader());
    }
    return generalBloom.mightContainRow(row, bloomLoader());
  }

  /**
   * {@link #mightContain(byte[], byte[])} for a row held in a range of a segment (a read that must
   * not allocate): false only if the general bloom proves the file holds no cell of the row. A
   * ROWCOL bloom cannot answer for a whole row, so it says true.
   */
  public boolean mightContainRow(MemorySegment row, long offset, int length) throws IOException {
    if (trailer.entryCount() == 0) {
      return false;
    }
    if (generalBloom == null || generalBloom.type() == BloomType.ROWCOL) {
      return true;
    }
    return generalBloom.mightContainRow(row, offset, length, bloomLoader);
  }

  /** False only if the delete-family bloom proves no DeleteFamily marker exists for {@code row}. */
  public boolean mightContainDeleteFamily(byte[] row) throws IOException {
    if (deleteFamilyBloom == null) {
      return fileInfo.getLong(FileInfo.DELETE_FAMILY_COUNT, 1) != 0;
    }
    return deleteFamilyBloom.mightContain(row, 0, row.length, bloomLoader());
  }

  private ChunkLoader bloomLoader() {
    return bloomLoader;
  }

  /**
   * A scanner over the file's cells; {@code cacheBlocks} false asks the loader not to keep the data
   * blocks it reads (index and bloom blocks are always cached).
   */
  public HFileScanner scanner(boolean cacheBlocks) {
    return new HFileScanner(this, cacheBlocks);
  }

  /** A key-only cell over a serialized key, for seeking to a key read from the file. */
  public static Cell keyCell(byte[] key) {
    byte[] serialized = new byte[2 * Integer.BYTES + key.length];
    MemorySegment segment = MemorySegment.ofArray(serialized);
    segment.set(ByteLayouts.INT_BE, 0, key.length);
    MemorySegment.copy(MemorySegment.ofArray(key), 0, segment, 2 * Integer.BYTES, key.length);
    return new KeyValueCell(segment, 0, serialized.length, false, 0);
  }

  String name() {
    return name;
  }

  /** The file offset where the trailer starts. */
  long trailerOffset() {
    return blockReaderEnd;
  }

  @Override
  public void close() throws IOException {
    LeftOutSeekIndexes indexes = leftOutSeekIndexes;
    if (indexes != null) {
      indexes.clear();
    }
    file.close();
  }

  @Override
  public String toString() {
    return "HFileReader[" + path + ", " + trailer.entryCount() + " cells]";
  }
}
