package dev.cellar.hfile;

import dev.cellar.memory.Buf;
import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * The checksum algorithms an HFile block header can name, by their on-disk codes. Checksums are
 * computed with the JDK's intrinsified {@link java.util.zip.CRC32C} / {@link java.util.zip.CRC32}
 * straight over the buffer's memory, off-heap included, without copying.
 */
public enum ChecksumType {
  NULL(0),
  CRC32(1),
  CRC32C(2);

  /** Bytes of one stored checksum value. */
  public static final int CHECKSUM_SIZE = 4;

  private final byte code;

  ChecksumType(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /** The type with on-disk {@code code}, or {@code null} if there is none. */
  public static ChecksumType fromCode(byte code) {
    for (ChecksumType type : values()) {
      if (type.code == code) {
        return type;
      }
    }
    return null;
  }

  /**
   * Number of checksum values covering {@code dataLength} bytes in chunks of {@code
   * bytesPerChecksum}.
   */
  public static int chunkCount(int dataLength, int bytesPerChecksum) {
    return (int) ((dataLength + (long) bytesPerChecksum - 1) / bytesPerChecksum);
  }

  /**
   * Bytes of the checksum area HBase's writer puts after {@code dataLength} bytes of header and
   * payload: one 4-byte value per chunk, whatever the type. A NULL block keeps that room too, all
   * zeros, and nothing reads it. A {@code bytesPerChecksum} of 0 (allowed for NULL only) means no
   * chunks and so no area.
   */
  public static int areaBytes(int dataLength, int bytesPerChecksum) {
    return bytesPerChecksum == 0 ? 0 : chunkCount(dataLength, bytesPerChecksum) * CHECKSUM_SIZE;
  }

  private static final ThreadLocal<Checksum> THREAD_CRC32 =
      ThreadLocal.withInitial(java.util.zip.CRC32::new);
  private static final ThreadLocal<Checksum> THREAD_CRC32C =
      ThreadLocal.withInitial(java.util.zip.CRC32C::new);

  /** The checksum of {@code length} bytes of {@code buf} from {@code index}. */
  public int compute(Buf buf, int index, int length) {
    Checksum checksum = reset();
    for (ByteBuffer piece : buf.slice(index, length).readOnlyByteBuffers()) {
      checksum.update(piece);
    }
    return (int) checksum.getValue();
  }

  /**
   * The checksum of the bytes between {@code view}'s position and limit (consumed), computed with
   * the calling thread's reusable checksum object, so a block's chunks cost no allocation.
   */
  public int compute(ByteBuffer view) {
    Checksum checksum = reset();
    checksum.update(view);
    return (int) checksum.getValue();
  }

  /** The checksum of {@code length} bytes of {@code array} from {@code offset}, as above. */
  public int compute(byte[] array, int offset, int length) {
    Checksum checksum = reset();
    checksum.update(array, offset, length);
    return (int) checksum.getValue();
  }

  private Checksum reset() {
    Checksum checksum =
        switch (this) {
          case CRC32 -> THREAD_CRC32.get();
          case CRC32C -> THREAD_CRC32C.get();
          case NULL -> throw new IllegalStateException("checksum type NULL computes nothing");
        };
    checksum.reset();
    return checksum;
  }
}
