package dev.cellar.cache.bucket;

import dev.cellar.cache.BlockCacheKey;
import dev.cellar.memory.Buf;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The checksum a persistent bucket cache keeps for each stored block: CRC32C over the stored bytes
 * (content then metadata), then over the key's file-name hash and block offset. Mixing in the key
 * means a slot reused for another block after the index was persisted never verifies as the old
 * block, even if the bytes happen to agree. Stateless.
 */
final class SlotChecksum {

  private SlotChecksum() {}

  /** The checksum of a block whose content and metadata are in two buffers. */
  static int of(
      BlockCacheKey key, Buf content, int contentLength, Buf metadata, int metadataLength) {
    CRC32C crc = new CRC32C();
    update(crc, content, 0, contentLength);
    update(crc, metadata, 0, metadataLength);
    return finish(crc, key.fileName(), key.offset());
  }

  /**
   * The checksum of a block stored contiguously in {@code stored} from index 0, the block at {@code
   * blockOffset} of file {@code fileName}.
   */
  static int of(String fileName, long blockOffset, Buf stored, int storedLength) {
    CRC32C crc = new CRC32C();
    update(crc, stored, 0, storedLength);
    return finish(crc, fileName, blockOffset);
  }

  private static void update(CRC32C crc, Buf buf, int index, int length) {
    if (length == 0) {
      return;
    }
    for (ByteBuffer piece : buf.slice(index, length).readOnlyByteBuffers()) {
      crc.update(piece);
    }
  }

  private static int finish(CRC32C crc, String fileName, long blockOffset) {
    ByteBuffer keyBytes = ByteBuffer.allocate(12);
    keyBytes.putInt(fileName.hashCode()).putLong(blockOffset).flip();
    crc.update(keyBytes);
    return (int) crc.getValue();
  }
}
