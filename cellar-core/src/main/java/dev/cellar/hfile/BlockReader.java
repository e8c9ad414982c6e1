package dev.cellar.hfile;

import dev.cellar.io.ReadOnlyFile;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufSource;
import dev.cellar.schema.Compression;
import java.io.EOFException;
import java.io.IOException;

/**
 * Reads blocks from an HFile: one positional read straight into a pooled buffer (which also takes
 * in the next block's header when it fits the same pool buffer, so a sequential scan learns each
 * next block's size without an extra read), header validation, checksum verification, then
 * decompression into a second pooled buffer. What comes back is an unpacked {@link HFileBlock}
 * (header and payload, no checksums) holding one reference.
 *
 * <p>The unpacked block is always one contiguous segment, so cells are read from it in place:
 * pooled off-heap when it fits one pool buffer (a 64 KiB block does, and so does one that
 * overshoots its block size by a cell, in the allocator's large class), otherwise on the heap,
 * which the allocator counts. Compressed on-disk bytes larger than every pool buffer may span
 * several. A caller that will hand an uncompressed block to an on-heap cache may pass that cache's
 * memory instead ({@link #readBlock(long, int, BlockType, BufSource)}): the block is then read into
 * it once and kept there, rather than read into a pooled buffer and copied.
 *
 * <p>Nothing from a block is used before its checksums pass, so a corrupt block can never make the
 * reader allocate a size it claims or decode garbage: it raises a {@link CorruptHFileException}
 * naming the file, the offset, what was expected and what was found. Where the file system keeps
 * copies with checksums of its own (HDFS), a block that fails is read once more through them
 * ({@link ReadOnlyFile#readFullyVerifiedByStorage}) before it counts as corrupt.
 *
 * <p>Thread-safe: reads are positional and share no state.
 */
public final class BlockReader {

  private final ReadOnlyFile file;
  private final String name;
  private final long blockRegionEnd;
  private final Compression compression;
  private final BufAllocator allocator;

  /**
   * @param file the open file
   * @param blockRegionEnd the offset where blocks end (the trailer's start); no block may cross it
   * @param compression the file's compression
   * @param allocator where block buffers come from
   */
  public BlockReader(
      ReadOnlyFile file, long blockRegionEnd, Compression compression, BufAllocator allocator) {
    this.file = file;
    this.name = file.describe();
    this.blockRegionEnd = blockRegionEnd;
    this.compression = compression;
    this.allocator = allocator;
  }

  public String fileName() {
    return name;
  }

  /**
   * Reads the block at {@code offset}.
   *
   * @param onDiskSizeWithHeader the block's on-disk size from an index entry, or -1 if unknown (the
   *     header is then read first)
   * @param expected the type the caller expects, or {@code null} for any; DATA and ENCODED_DATA
   *     satisfy each other
   * @return the unpacked block, holding one reference the caller must release
   */
  public HFileBlock readBlock(long offset, int onDiskSizeWithHeader, BlockType expected)
      throws IOException {
    return readBlock(offset, onDiskSizeWithHeader, expected, null);
  }

  /**
   * As {@link #readBlock(long, int, BlockType)}; an uncompressed file's block is read into a buffer
   * from {@code memory} (when not null) instead of the allocator, and the block returned lies at
   * its start, the checksums and the next block's header after it.
   */
  public HFileBlock readBlock(
      long offset, int onDiskSizeWithHeader, BlockType expected, BufSource memory)
      throws IOException {
    BufSource source = compression == Compression.NONE ? memory : null;
    Buf onDisk = readVerified(offset, onDiskSizeWithHeader, expected, source);
    BlockType type;
    try {
      type = BlockType.fromMagic(onDisk, BlockHeader.MAGIC_OFFSET);
    } catch (RuntimeException e) {
      onDisk.release();
      throw e;
    }
    return unpack(type, offset, onDisk, nextBlockOnDiskSize(onDisk, offset, source));
  }

  /**
   * The allocator's reusable buffers ({@link dev.cellar.memory.BufAllocator#reusableSource()}), for
   * blocks read for one reader that no cache keeps.
   */
  public BufSource reusableMemory() {
    return allocator.reusableSource();
  }

  /** Whether the file's blocks are compressed, so that {@link #readPacked} means something. */
  public boolean compressed() {
    return compression != Compression.NONE;
  }

  /**
   * Reads the block at {@code offset} in its packed form: header and compressed payload, checksums
   * verified and dropped, not decompressed (arguments as for {@link #readBlock}).
   *
   * @return the packed block, holding one reference the caller must release
   */
  public PackedBlock readPacked(long offset, int onDiskSizeWithHeader, BlockType expected)
      throws IOException {
    Buf onDisk = readVerified(offset, onDiskSizeWithHeader, expected, null);
    try {
      BlockHeader header =
          BlockHeader.of(onDisk, 0, BlockType.fromMagic(onDisk, BlockHeader.MAGIC_OFFSET));
      PackedBlock packed =
          new PackedBlock(
              header,
              offset,
              onDisk.slice(0, header.onDiskDataSizeWithHeader()),
              nextBlockOnDiskSize(onDisk, offset, null));
      onDisk = null;
      return packed;
    } finally {
      if (onDisk != null) {
        onDisk.release();
      }
    }
  }

  /**
   * Decompresses {@code packed} into a new block; {@code packed} keeps its reference.
   *
   * @return the unpacked block, holding one reference the caller must release
   */
  public HFileBlock unpack(PackedBlock packed) throws IOException {
    Buf source = packed.buf();
    if (source.isDirect()) {
      packed.retain();
    } else {
      // A heap copy (the L1's): the codecs decompress between off-heap buffers without a heap
      // array, so the compressed bytes go to a pooled buffer first.
      Buf direct = allocator.allocateContiguous(source.capacity());
      source.copyTo(0, direct, 0, source.capacity());
      source = direct;
    }
    return unpack(packed.type(), packed.offset(), source, packed.nextBlockOnDiskSize());
  }

  /**
   * Reads a block and checks its header and checksums; returns a buffer holding its on-disk bytes
   * from its header on, with the next block's header after them when it was read along ({@link
   * #peekLength}), and possibly more bytes after those, one reference for the caller. From a buffer
   * of {@code memory}, or of the allocator when it is null; an uncompressed block takes a whole
   * buffer of the class that holds it, so that it needs no view of the buffer's first bytes.
   */
  private Buf readVerified(
      long offset, int onDiskSizeWithHeader, BlockType expected, BufSource memory)
      throws IOException {
    if (offset < 0 || offset + BlockHeader.SIZE > blockRegionEnd) {
      throw new CorruptHFileException(
          name, offset, "block offset", "0 .. " + (blockRegionEnd - BlockHeader.SIZE), offset);
    }
    int size = onDiskSizeWithHeader >= 0 ? onDiskSizeWithHeader : peekSize(offset);
    if (size < BlockHeader.SIZE || offset + size > blockRegionEnd) {
      throw new CorruptHFileException(
          name, offset, "block size", BlockHeader.SIZE + " .. " + (blockRegionEnd - offset), size);
    }
    int peek = peekLength(offset, size, memory);
    Buf onDisk =
        memory != null
            ? memory.takeAtLeastRetained(size + peek)
            : compression == Compression.NONE
                ? allocator.allocateContiguousAtLeast(size + peek)
                : size + peek <= allocator.config().largestBufferSize()
                    ? allocator.allocateContiguous(size + peek)
                    : allocator.allocate(size + peek);
    try {
      readFully(offset, onDisk, size + peek);
      boolean reread = false;
      while (true) {
        try {
          BlockType type = BlockHeader.check(onDisk, 0, name, offset);
          int sizeRead = BlockHeader.onDiskSizeWithHeader(onDisk, 0);
          if (sizeRead != size) {
            throw new CorruptHFileException(
                name, offset, type + " block on-disk size", size, sizeRead);
          }
          if (expected != null && !matches(expected, type)) {
            throw new CorruptHFileException(name, offset, "block type", expected, type);
          }
          BlockChecksums.verifyChecked(onDisk, type, name, offset);
          Buf verified = onDisk;
          onDisk = null;
          return verified;
        } catch (CorruptHFileException e) {
          if (reread || !file.readFullyVerifiedByStorage(offset, onDisk, 0, size + peek)) {
            throw e;
          }
          reread = true;
        }
      }
    } finally {
      if (onDisk != null) {
        onDisk.release();
      }
    }
  }

  /**
   * How many bytes of the next block's header a read of the {@code size}-byte block at {@code
   * offset} into {@code memory} (or the allocator's, when null) takes along: the whole header when
   * there is a next block and the buffer the read takes has room for it anyway, else none.
   */
  private int peekLength(long offset, int size, BufSource memory) {
    return offset + size + BlockHeader.SIZE <= blockRegionEnd
            && (memory != null || size + BlockHeader.SIZE <= allocator.contiguousRoomFor(size))
        ? BlockHeader.SIZE
        : 0;
  }

  /**
   * The on-disk size of the next block, from its header when it was read along with the block at
   * {@code offset} into {@code memory} ({@link #peekLength}; not yet verified: a wrong value makes
   * the next read fail its size check), or -1 if it was not or is implausible.
   */
  private int nextBlockOnDiskSize(Buf onDisk, long offset, BufSource memory) {
    int size = BlockHeader.onDiskSizeWithHeader(onDisk, 0);
    if (peekLength(offset, size, memory) == 0) {
      return -1;
    }
    int withoutHeader = onDisk.getInt(size + BlockHeader.ON_DISK_SIZE_OFFSET);
    return withoutHeader < 0 || withoutHeader > Integer.MAX_VALUE - BlockHeader.SIZE
        ? -1
        : withoutHeader + BlockHeader.SIZE;
  }

  private static boolean matches(BlockType expected, BlockType actual) {
    return expected == actual || (expected.isData() && actual.isData());
  }

  private int peekSize(long offset) throws IOException {
    Buf header = Buf.wrap(new byte[BlockHeader.SIZE]);
    readFully(offset, header, BlockHeader.SIZE);
    return BlockHeader.read(header, 0, name, offset).onDiskSizeWithHeader();
  }

  private void readFully(long offset, Buf dst, int length) throws IOException {
    try {
      file.readFully(offset, dst, 0, length);
    } catch (EOFException e) {
      throw new CorruptHFileException(name, offset, "file truncated inside a block", e);
    }
  }

  /**
   * Takes over {@code onDisk}'s reference (released on failure), a checked block of type {@code
   * type} from its header on; returns the unpacked block.
   */
  private HFileBlock unpack(BlockType type, long offset, Buf onDisk, int nextBlockOnDiskSize)
      throws IOException {
    int payload = BlockHeader.uncompressedSizeWithoutHeader(onDisk, 0);
    int onDiskPayload = BlockHeader.onDiskDataSizeWithHeader(onDisk, 0) - BlockHeader.SIZE;
    if (compression == Compression.NONE) {
      if (onDiskPayload != payload) {
        onDisk.release();
        throw new CorruptHFileException(
            name, offset, type + " uncompressed block payload size", onDiskPayload, payload);
      }
      return HFileBlock.over(type, offset, onDisk, payload, nextBlockOnDiskSize);
    }
    Buf unpacked = allocator.allocateContiguous(BlockHeader.SIZE + payload);
    try {
      onDisk.copyTo(0, unpacked, 0, BlockHeader.SIZE);
      BlockCodecs.of(compression)
          .decompress(onDisk, BlockHeader.SIZE, onDiskPayload, unpacked, BlockHeader.SIZE, payload);
    } catch (IOException | RuntimeException e) {
      unpacked.release();
      onDisk.release();
      throw new CorruptHFileException(name, offset, type + " block " + compression + " payload", e);
    }
    onDisk.release();
    return new HFileBlock(type, offset, unpacked, payload, nextBlockOnDiskSize);
  }
}
