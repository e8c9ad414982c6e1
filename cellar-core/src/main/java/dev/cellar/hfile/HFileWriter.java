package dev.cellar.hfile;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.hfile.bloom.CompoundBloomWriter;
import dev.cellar.hfile.bloom.ReadyChunk;
import dev.cellar.hfile.encoding.BlockEncoder;
import dev.cellar.hfile.encoding.EncodingContext;
import dev.cellar.hfile.encoding.Encodings;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.schema.BloomType;
import dev.cellar.schema.DataBlockEncoding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes an HFile v3 that Apache HBase reads: cells streamed in order become data blocks with
 * inline leaf index and bloom chunks, and closing writes the meta blocks, the index, the file info,
 * the bloom metadata and the trailer.
 *
 * <pre>
 * file := ( DATA | ENCODED_DATA  [LEAF_INDEX] [BLOOM_CHUNK]* )*       scanned section
 *         META* INTERMEDIATE_INDEX*                                  non-scanned section
 *         ROOT_INDEX(data) ROOT_INDEX(meta) FILE_INFO                load-on-open section
 *         [GENERAL_BLOOM_META] [DELETE_FAMILY_BLOOM_META]
 *         trailer (4096 bytes, {@link Trailer})
 * </pre>
 *
 * A data block closes, before a cell whose key differs from the previous cell's, once its encoded
 * or unencoded size reached the block size, so cells with equal keys never straddle blocks. The
 * index records each block under a shortened key ({@link IndexKeys}). Blocks: {@link BlockWriter};
 * index: {@link BlockIndexWriter}; file info: {@link FileInfo}.
 *
 * <p>Not thread-safe. Cells must arrive in {@link CellComparator} order (ignoring sequence ids); an
 * out-of-order cell is rejected with an error naming both cells and the file, and nothing written
 * so far is affected.
 */
public final class HFileWriter implements AutoCloseable {

  private final Path path;
  private final HFileContext context;
  private final AppendOnlyFile out;
  private final BlockWriter blocks;
  private final BlockEncoder encoder;
  private final BlockIndexWriter index;
  private final CompoundBloomWriter generalBloom;
  private final CompoundBloomWriter deleteFamilyBloom;
  private final FileInfo fileInfo = new FileInfo();
  private final Map<String, byte[]> metaBlocks = new TreeMap<>();
  private final FileStatistics stats = new FileStatistics();
  private final KeyHolder lastKey = new KeyHolder();
  private final KeyHolder blockFirstKey = new KeyHolder();
  private final KeyHolder previousBlockLastKey = new KeyHolder();
  private long firstDataBlockOffset = -1;
  private long lastDataBlockOffset = -1;
  private boolean closed;

  private HFileWriter(Path path, HFileContext context, AppendOnlyFile out) {
    this.path = path;
    this.context = context;
    this.out = out;
    this.blocks =
        new BlockWriter(
            out, context.compression(), context.checksumType(), context.bytesPerChecksum());
    this.encoder =
        Encodings.newEncoder(
            context.encoding(),
            new EncodingContext(
                context.includesTags(), context.includesMvcc(), context.compressTags()));
    this.index = new BlockIndexWriter(context.indexBlockMaxSize(), context.indexMinEntries());
    this.generalBloom =
        context.bloomType() == BloomType.NONE
            ? null
            : CompoundBloomWriter.general(context.bloomType(), context.bloomConfig());
    this.deleteFamilyBloom =
        context.bloomType() == BloomType.ROWCOL
            ? null
            : CompoundBloomWriter.deleteFamily(context.bloomConfig());
  }

  /** Creates {@code path} (which must not exist) and returns a writer for it. */
  public static HFileWriter create(Path path, HFileContext context) throws IOException {
    return new HFileWriter(path, context, AppendOnlyFile.create(path));
  }

  /** A writer appending to {@code out}, a new empty file, which it closes. */
  public static HFileWriter create(AppendOnlyFile out, HFileContext context) {
    return new HFileWriter(out.path(), context, out);
  }

  public Path path() {
    return path;
  }

  public HFileContext context() {
    return context;
  }

  /**
   * Appends {@code cell}, which must not sort before the previous cell.
   *
   * @throws IllegalArgumentException if it does, naming both cells; the file is unchanged
   */
  public void append(Cell cell) throws IOException {
    ensureOpen();
    boolean sameKey = false;
    if (lastKey.isPresent()) {
      int order = CellComparator.compareKeyIgnoringSequenceId(lastKey.cell(), cell);
      if (order > 0) {
        throw new IllegalArgumentException(
            path
                + ": cell "
                + cell
                + " is out of order: it sorts before the previous cell "
                + lastKey.cell());
      }
      sameKey = order == 0;
    }
    if (generalBloom != null) {
      generalBloom.add(cell);
    }
    if (deleteFamilyBloom != null) {
      deleteFamilyBloom.add(cell);
    }
    if (!sameKey
        && encoder.cellCount() > 0
        && (encoder.encodedSize() >= context.blockSize()
            || encoder.unencodedSize() >= context.blockSize())) {
      finishDataBlock();
    }
    if (encoder.cellCount() == 0) {
      blockFirstKey.set(cell);
    }
    encoder.append(cell);
    stats.add(cell);
    lastKey.set(cell);
  }

  /** Adds an entry to the file info (store-level metadata such as MAX_SEQ_ID_KEY). */
  public void appendFileInfo(String key, byte[] value) {
    ensureOpen();
    if (key.startsWith("hfile.")) {
      throw new IllegalArgumentException(
          "file info keys starting with 'hfile.' are reserved: " + key);
    }
    fileInfo.put(key, value);
  }

  /** Adds a META block named {@code name}; meta blocks are written at close, sorted by name. */
  public void appendMetaBlock(String name, byte[] bytes) {
    ensureOpen();
    metaBlocks.put(name, bytes.clone());
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException(path + ": the writer is closed");
    }
  }

  private void finishDataBlock() throws IOException {
    byte[] payload = encoder.finishBlock();
    BlockType type =
        context.encoding() == DataBlockEncoding.NONE ? BlockType.DATA : BlockType.ENCODED_DATA;
    BlockWriter.WrittenBlock block = blocks.write(type, payload, payload.length);
    byte[] indexKey =
        previousBlockLastKey.isPresent()
            ? IndexKeys.midpoint(previousBlockLastKey.cell(), blockFirstKey.cell())
            : blockFirstKey.keyBytes();
    index.addDataBlock(indexKey, block.offset(), block.onDiskSizeWithHeader());
    if (firstDataBlockOffset < 0) {
      firstDataBlockOffset = block.offset();
    }
    lastDataBlockOffset = block.offset();
    previousBlockLastKey.set(lastKey);
    index.writeLeafIfFull(blocks);
    writeReadyBloomChunks(generalBloom);
    writeReadyBloomChunks(deleteFamilyBloom);
  }

  private void writeReadyBloomChunks(CompoundBloomWriter bloom) throws IOException {
    // Bloom keys are added before the block decision, as HBase's store writer does, so chunks
    // land at the same block boundaries as in HBase's files.
    if (bloom == null) {
      return;
    }
    while (bloom.hasReadyChunk()) {
      writeBloomChunk(bloom, bloom.takeReadyChunk());
    }
  }

  private void writeBloomChunk(CompoundBloomWriter bloom, ReadyChunk chunk) throws IOException {
    byte[] payload = chunk.payload();
    BlockWriter.WrittenBlock block = blocks.write(BlockType.BLOOM_CHUNK, payload, payload.length);
    bloom.chunkWritten(block.offset(), block.onDiskSizeWithHeader());
  }

  private void finishLastBloomChunk(CompoundBloomWriter bloom) throws IOException {
    if (bloom == null) {
      return;
    }
    writeReadyBloomChunks(bloom);
    ReadyChunk last = bloom.finishLastChunk();
    if (last != null) {
      writeBloomChunk(bloom, last);
    }
  }

  /** Writes everything that follows the cells and closes the file. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (encoder.cellCount() > 0) {
        finishDataBlock();
      }
      index.writeLastLeaf(blocks);
      finishLastBloomChunk(generalBloom);
      finishLastBloomChunk(deleteFamilyBloom);
      IndexEntries metaIndex = new IndexEntries();
      for (Map.Entry<String, byte[]> meta : metaBlocks.entrySet()) {
        byte[] bytes = meta.getValue();
        BlockWriter.WrittenBlock block = blocks.write(BlockType.META, bytes, bytes.length);
        metaIndex.add(
            meta.getKey().getBytes(StandardCharsets.UTF_8),
            block.offset(),
            block.onDiskSizeWithHeader());
      }
      BlockIndexWriter.Result dataIndex = index.writeRoot(blocks);
      PayloadBuilder metaRoot = new PayloadBuilder((int) metaIndex.rootSize());
      metaIndex.writeRoot(metaRoot);
      blocks.write(BlockType.ROOT_INDEX, metaRoot.toByteArray(), metaRoot.size());
      fillFileInfo();
      byte[] info = fileInfo.toPayload();
      BlockWriter.WrittenBlock infoBlock = blocks.write(BlockType.FILE_INFO, info, info.length);
      writeBloomMeta(generalBloom, BlockType.GENERAL_BLOOM_META);
      writeBloomMeta(deleteFamilyBloom, BlockType.DELETE_FAMILY_BLOOM_META);
      Trailer trailer =
          new Trailer(
              infoBlock.offset(),
              dataIndex.rootOffset(),
              dataIndex.uncompressedSize(),
              blocks.uncompressedBytesWithHeaders() - dataIndex.excludedFromTotal() + Trailer.SIZE,
              dataIndex.rootEntries(),
              metaIndex.count(),
              stats.cells(),
              dataIndex.levels(),
              firstDataBlockOffset,
              lastDataBlockOffset,
              Trailer.COMPARATOR_NAME,
              context.compression(),
              Trailer.MINOR_VERSION);
      byte[] trailerBytes = trailer.toBytes();
      out.append(trailerBytes, 0, trailerBytes.length);
      out.sync();
    } finally {
      out.close();
    }
  }

  private void writeBloomMeta(CompoundBloomWriter bloom, BlockType type) throws IOException {
    if (bloom == null || bloom.isEmpty()) {
      return;
    }
    byte[] meta = bloom.metaPayload();
    blocks.write(type, meta, meta.length);
  }

  private void fillFileInfo() throws IOException {
    if (lastKey.isPresent()) {
      fileInfo.put(FileInfo.LASTKEY, lastKey.keyBytes());
    }
    fileInfo.putInt(FileInfo.AVG_KEY_LEN, stats.averageKeyLength());
    fileInfo.putInt(FileInfo.AVG_VALUE_LEN, stats.averageValueLength());
    fileInfo.putLong(FileInfo.CREATE_TIME_TS, context.createTime());
    if (stats.cells() > 0) {
      fileInfo.put(FileInfo.KEY_OF_BIGGEST_CELL, stats.keyOfBiggestCell());
      fileInfo.putLong(FileInfo.LEN_OF_BIGGEST_CELL, stats.lengthOfBiggestCell());
    }
    if (context.includesTags()) {
      fileInfo.putInt(FileInfo.MAX_TAGS_LEN, stats.maxTagsLength());
      fileInfo.putBoolean(
          FileInfo.TAGS_COMPRESSED,
          context.encoding() != DataBlockEncoding.NONE && context.compressTags());
    }
    if (context.includesMvcc()) {
      fileInfo.putInt(FileInfo.KEY_VALUE_VERSION, FileInfo.KEY_VALUE_VERSION_WITH_MVCC);
      fileInfo.putLong(FileInfo.MAX_MEMSTORE_TS_KEY, stats.maxSequenceId());
    }
    if (context.encoding() != DataBlockEncoding.NONE) {
      fileInfo.put(
          FileInfo.DATA_BLOCK_ENCODING,
          context.encoding().name().getBytes(StandardCharsets.US_ASCII));
    }
    fileInfo.put(FileInfo.TIMERANGE, stats.timeRange());
    fileInfo.putLong(FileInfo.EARLIEST_PUT_TS, stats.earliestPutTimestamp());
    if (generalBloom != null && !generalBloom.isEmpty()) {
      fileInfo.put(
          FileInfo.BLOOM_FILTER_TYPE,
          context.bloomType().name().getBytes(StandardCharsets.US_ASCII));
      fileInfo.put(FileInfo.LAST_BLOOM_KEY, generalBloom.lastKey());
      if (context.bloomType() == BloomType.ROWPREFIX_FIXED_LENGTH) {
        fileInfo.putInt(FileInfo.BLOOM_FILTER_PARAM, context.bloomConfig().prefixLength());
      }
    }
    fileInfo.putLong(FileInfo.DELETE_FAMILY_COUNT, stats.deleteFamilyCells());
  }

  /** Running statistics of the cells written, for the file info. */
  private static final class FileStatistics {
    private long cells;
    private long keyBytes;
    private long valueBytes;
    private int maxTagsLength;
    private long maxSequenceId;
    private long biggestCellLength = -1;
    private byte[] keyOfBiggestCell;
    private long minTimestamp = Long.MAX_VALUE;
    private long maxTimestamp = -1;
    private long earliestPut = Long.MAX_VALUE;
    private long deleteFamilyCells;

    void add(Cell cell) {
      cells++;
      keyBytes += cell.keyLength();
      valueBytes += cell.valueLength();
      int tags = cell.tagsLength();
      maxTagsLength = Math.max(maxTagsLength, tags);
      maxSequenceId = Math.max(maxSequenceId, cell.sequenceId());
      long length =
          2L * Integer.BYTES
              + cell.keyLength()
              + cell.valueLength()
              + (tags > 0 ? Short.BYTES + tags : 0)
              + Integer.BYTES;
      if (length > biggestCellLength) {
        biggestCellLength = length;
        keyOfBiggestCell = IndexKeys.keyOf(cell);
      }
      long timestamp = cell.timestamp();
      CellType type = cell.type();
      minTimestamp = Math.min(minTimestamp, timestamp);
      maxTimestamp = Math.max(maxTimestamp, timestamp);
      if (type == CellType.DELETE_COLUMN || type == CellType.DELETE_FAMILY) {
        minTimestamp = Math.min(minTimestamp, 0);
      }
      if (type == CellType.PUT) {
        earliestPut = Math.min(earliestPut, timestamp);
      }
      if (type == CellType.DELETE_FAMILY || type == CellType.DELETE_FAMILY_VERSION) {
        deleteFamilyCells++;
      }
    }

    long cells() {
      return cells;
    }

    int averageKeyLength() {
      return cells == 0 ? 0 : (int) (keyBytes / cells);
    }

    int averageValueLength() {
      return cells == 0 ? 0 : (int) (valueBytes / cells);
    }

    int maxTagsLength() {
      return maxTagsLength;
    }

    long maxSequenceId() {
      return maxSequenceId;
    }

    byte[] keyOfBiggestCell() {
      return keyOfBiggestCell;
    }

    long lengthOfBiggestCell() {
      return biggestCellLength;
    }

    long earliestPutTimestamp() {
      return earliestPut;
    }

    long deleteFamilyCells() {
      return deleteFamilyCells;
    }

    /** TIMERANGE's value: minimum then maximum timestamp as big-endian longs. */
    byte[] timeRange() {
      return new PayloadBuilder(16).putLong(minTimestamp).putLong(maxTimestamp).toByteArray();
    }
  }
}
