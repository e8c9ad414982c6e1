package dev.cellar.hfile;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.hfile.encoding.BlockSeeker;
import dev.cellar.hfile.encoding.Encodings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Checks an entire HFile: every block's checksums, header and previous-block chain; every total the
 * trailer records against the blocks actually there; every cell in order and counted; the index
 * leading to every data block; and the bloom filters answering yes for every key. Together these
 * cover every byte of a file, so a flipped bit anywhere is reported, never served. Blocks written
 * with checksum type NULL are the exception: a flipped bit in their payload is caught only if it
 * breaks their structure, and the report counts them.
 *
 * <p>Not thread-safe; it reads the file once, sequentially, bypassing any block cache.
 */
public final class HFileVerifier {

  private final HFileReader reader;
  private final String name;
  private final Map<BlockType, Integer> counts = new EnumMap<>(BlockType.class);
  private final Map<BlockType, Long> lastOffsetByChain = new EnumMap<>(BlockType.class);
  private final List<long[]> dataBlocks = new ArrayList<>();
  private int blocksWithoutChecksums;
  private long uncompressedWithHeaders;
  private long indexPayloadBytes;
  private long rootAndIntermediateBytes;

  private HFileVerifier(HFileReader reader) {
    this.reader = reader;
    this.name = reader.name();
  }

  /**
   * Verifies {@code reader}'s file.
   *
   * @return what was checked
   * @throws CorruptHFileException naming the first problem found: file, offset, expected, found
   */
  public static Report verify(HFileReader reader) throws IOException {
    return new HFileVerifier(reader).run();
  }

  /**
   * What a verification covered.
   *
   * @param blocks blocks read, and checksum-verified unless their checksum type is NULL
   * @param blocksByType the same, by type
   * @param cells cells read in order
   * @param blocksWithoutChecksums blocks whose checksum type is NULL: only their structure and
   *     cells could be checked, and a flipped bit in their payload may go unnoticed
   */
  public record Report(
      int blocks, Map<BlockType, Integer> blocksByType, long cells, int blocksWithoutChecksums) {}

  private Report run() throws IOException {
    Trailer trailer = reader.trailer();
    int blocks = readEveryBlock();
    checkTrailerTotals(trailer);
    long cells = checkCells(trailer);
    checkIndexReachesEveryDataBlock();
    reader.midKey();
    return new Report(blocks, Map.copyOf(counts), cells, blocksWithoutChecksums);
  }

  private int readEveryBlock() throws IOException {
    long end = reader.trailer().loadOnOpenDataOffset();
    long blocksEnd = reader.trailerOffset();
    long offset = 0;
    int size = -1;
    int blocks = 0;
    boolean dataRootSeen = false;
    while (offset < blocksEnd) {
      HFileBlock block = reader.readBlockUncached(offset, size, null);
      try {
        BlockType type = block.type();
        counts.merge(type, 1, Integer::sum);
        if (block.header().checksumType() == ChecksumType.NULL) {
          blocksWithoutChecksums++;
        }
        checkChain(block, type, offset, dataRootSeen);
        int payload = block.payloadSize();
        uncompressedWithHeaders += BlockHeader.SIZE + payload;
        if (type.isData()) {
          if (offset >= end) {
            throw corrupt(
                offset,
                "data block placement",
                "before the load-on-open section at " + end,
                "a data block after it");
          }
          dataBlocks.add(new long[] {offset, block.onDiskSizeWithHeader()});
        } else if (type == BlockType.LEAF_INDEX) {
          indexPayloadBytes += payload;
        } else if (type == BlockType.INTERMEDIATE_INDEX) {
          indexPayloadBytes += payload;
          rootAndIntermediateBytes += BlockHeader.SIZE + payload;
        } else if (type == BlockType.ROOT_INDEX && !dataRootSeen) {
          dataRootSeen = true;
          indexPayloadBytes += payload;
          rootAndIntermediateBytes += BlockHeader.SIZE + payload;
        }
        offset += block.onDiskSizeWithHeader();
        size = block.nextBlockOnDiskSize();
        blocks++;
      } finally {
        block.release();
      }
    }
    if (offset != blocksEnd) {
      throw corrupt(
          offset,
          "block layout",
          "blocks ending at the trailer, " + blocksEnd,
          "a block ending at " + offset);
    }
    return blocks;
  }

  /** Each block's previous-block offset must name the previous block of its chain. */
  private void checkChain(HFileBlock block, BlockType type, long offset, boolean dataRootSeen)
      throws CorruptHFileException {
    BlockType chain = type == BlockType.ENCODED_DATA ? BlockType.DATA : type;
    boolean ownChain =
        switch (chain) {
          case FILE_INFO, GENERAL_BLOOM_META, DELETE_FAMILY_BLOOM_META -> false;
          case ROOT_INDEX -> dataRootSeen;
          default -> true;
        };
    long expected = ownChain ? lastOffsetByChain.getOrDefault(chain, -1L) : -1L;
    long found = block.prevBlockOffset();
    if (found != expected) {
      throw corrupt(offset, type + " block previous-block offset", expected, found);
    }
    lastOffsetByChain.put(chain, offset);
  }

  private void checkTrailerTotals(Trailer trailer) throws CorruptHFileException {
    long trailerOffset = reader.trailerOffset();
    long firstData = dataBlocks.isEmpty() ? -1 : dataBlocks.getFirst()[0];
    long lastData = dataBlocks.isEmpty() ? -1 : dataBlocks.getLast()[0];
    expectTrailer(
        trailerOffset, "first_data_block_offset", firstData, trailer.firstDataBlockOffset());
    expectTrailer(trailerOffset, "last_data_block_offset", lastData, trailer.lastDataBlockOffset());
    expectTrailer(
        trailerOffset,
        "uncompressed_data_index_size",
        indexPayloadBytes,
        trailer.uncompressedDataIndexSize());
    expectTrailer(
        trailerOffset,
        "total_uncompressed_bytes",
        uncompressedWithHeaders - rootAndIntermediateBytes + Trailer.SIZE,
        trailer.totalUncompressedBytes());
    expectTrailer(
        trailerOffset,
        "meta_index_count",
        counts.getOrDefault(BlockType.META, 0),
        trailer.metaIndexCount());
    int expectedTrailing =
        trailer.numDataIndexLevels() > 1 ? BlockIndexReader.MID_KEY_METADATA_SIZE : 0;
    int trailing = reader.dataIndex().root().trailingBytes();
    if (trailing != expectedTrailing) {
      throw corrupt(
          trailer.loadOnOpenDataOffset(),
          "data index root size for "
              + trailer.dataIndexCount()
              + " entries and "
              + trailer.numDataIndexLevels()
              + " level(s)",
          expectedTrailing + " bytes after the entries",
          trailing + " bytes");
    }
  }

  private void expectTrailer(long trailerOffset, String field, long expected, long found)
      throws CorruptHFileException {
    if (expected != found) {
      throw corrupt(
          trailerOffset, "trailer " + field + " (from the blocks present)", expected, found);
    }
  }

  private long checkCells(Trailer trailer) throws IOException {
    long cells = 0;
    byte[] previousRow = null;
    KeyHolder previous = new KeyHolder();
    try (HFileScanner scanner = reader.scanner(false)) {
      boolean more = scanner.seekTo();
      byte[] firstKey = reader.firstKey();
      if (more
          && firstKey != null
          && !Arrays.equals(firstKey, IndexKeys.keyOf(scanner.current()))) {
        throw corrupt(
            trailer.loadOnOpenDataOffset(),
            "first data index key",
            "the first cell's key",
            Bytes.toStringBinary(firstKey));
      }
      byte[] lastKey = null;
      while (more) {
        Cell cell = scanner.current();
        checkType(cell, scanner.currentBlock().offset());
        if (previous.isPresent()
            && CellComparator.compareKeyIgnoringSequenceId(previous.cell(), cell) > 0) {
          throw corrupt(-1, "cell order", "ascending cells", previous.cell() + " before " + cell);
        }
        checkBlooms(cell, previousRow);
        previousRow = cell.rowArray();
        lastKey = IndexKeys.keyOf(cell);
        cells++;
        previous.set(cell);
        more = scanner.next();
      }
      byte[] recordedLast = reader.lastKey();
      if (!Arrays.equals(lastKey, recordedLast)) {
        throw corrupt(
            trailer.fileInfoOffset(),
            "file info " + FileInfo.LASTKEY,
            lastKey == null ? "none" : Bytes.toStringBinary(lastKey),
            recordedLast == null ? "none" : Bytes.toStringBinary(recordedLast));
      }
    }
    if (cells != trailer.entryCount()) {
      throw corrupt(
          reader.trailerOffset(),
          "trailer entry_count (from the cells present)",
          cells,
          trailer.entryCount());
    }
    return cells;
  }

  private void checkType(Cell cell, long blockOffset) throws CorruptHFileException {
    try {
      cell.type();
    } catch (IllegalArgumentException e) {
      throw new CorruptHFileException(name, blockOffset, "type of a cell in the data block", e);
    }
  }

  private void checkBlooms(Cell cell, byte[] previousRow) throws IOException {
    byte[] row = cell.rowArray();
    if (!reader.mightContain(row, cell.qualifierArray())) {
      throw corrupt(
          reader.trailer().loadOnOpenDataOffset(),
          "general bloom filter",
          "a match for " + cell,
          "no match");
    }
    boolean deleteFamily =
        cell.type() == CellType.DELETE_FAMILY || cell.type() == CellType.DELETE_FAMILY_VERSION;
    if (deleteFamily
        && (previousRow == null || !Arrays.equals(previousRow, row))
        && !reader.mightContainDeleteFamily(row)) {
      throw corrupt(
          reader.trailer().loadOnOpenDataOffset(),
          "delete family bloom filter",
          "a match for " + cell,
          "no match");
    }
  }

  private void checkIndexReachesEveryDataBlock() throws IOException {
    BlockSeeker seeker = Encodings.newSeeker(reader.encoding(), reader.encodingContext());
    BlockIndexReader.BlockPointer pointer = new BlockIndexReader.BlockPointer();
    for (long[] data : dataBlocks) {
      HFileBlock block = reader.readBlockUncached(data[0], (int) data[1], BlockType.DATA);
      try {
        seeker.setBlock(block.payload());
        Cell first = seeker.current();
        if (!reader.dataIndex().locate(first, reader.blockLoader(), pointer)
            || pointer.offset != data[0]
            || pointer.onDiskSize != data[1]) {
          throw corrupt(
              data[0],
              "data index entry for the block",
              "offset " + data[0] + " size " + data[1],
              "offset " + pointer.offset + " size " + pointer.onDiskSize);
        }
      } catch (RuntimeException e) {
        throw new CorruptHFileException(name, data[0], "malformed data block", e);
      } finally {
        block.release();
      }
    }
  }

  private CorruptHFileException corrupt(long offset, String what, Object expected, Object found) {
    return new CorruptHFileException(name, offset, what, expected, found);
  }
}
