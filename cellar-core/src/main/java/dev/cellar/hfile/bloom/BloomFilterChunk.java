package dev.cellar.hfile.bloom;

import dev.cellar.memory.Buf;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One bloom chunk's bit array, as HBase's {@code BloomFilterChunk} builds it: keys are added, the
 * array is folded when the chunk closes, and its bytes become a {@code BLOOM_CHUNK} payload. Not
 * thread-safe: one writer fills a chunk; the static {@link #contains(Buf, HashType, int,
 * MemorySegment, long, int)} probes a published payload from any thread.
 *
 * <p><b>Bits.</b> Bit {@code p} of the chunk is bit {@code p & 7} (mask {@code 1 << (p & 7)}) of
 * byte {@code p >> 3}. A key sets, and a probe tests, {@code hashCount} bits chosen by double
 * hashing: {@code h1 = H(key, 0)}, {@code h2 = H(key, h1)}, bit {@code |(h1 + i * h2) rem bitSize|}
 * for {@code i = 0 .. hashCount-1}, in 32-bit wrap-around arithmetic with the truncating remainder
 * and {@code bitSize = 8 * byteSize}. A probe uses the byte size of the payload it is given, so a
 * folded chunk is probed correctly.
 *
 * <p><b>Folding.</b> A chunk closed with few keys shrinks: while its byte size is even and its
 * {@code maxKeys} exceeds twice its key count, byte size and {@code maxKeys} are halved (no limit
 * other than that). After {@code j} halvings the {@code 2^j} equal slices of the array are OR-ed
 * into the first, which is kept. A key's bit {@code p} lands on {@code p mod newBitSize}, which the
 * probe's remainder by the new size finds, so folding never loses a key.
 */
public final class BloomFilterChunk {

  /** Largest payload a probe accepts: HBase's reader computes the bit count in an int. */
  static final int MAX_BYTE_SIZE = Integer.MAX_VALUE / Byte.SIZE;

  private final HashType hashType;
  private final int hashCount;
  private byte[] bits;
  private int maxKeys;
  private int keyCount;

  /** An empty chunk of the given sizing. */
  public BloomFilterChunk(ChunkSizing sizing, HashType hashType) {
    if (sizing.byteSize() > MAX_BYTE_SIZE) {
      throw new IllegalArgumentException(
          "bloom chunk size: expected at most "
              + MAX_BYTE_SIZE
              + " bytes, found "
              + sizing.byteSize());
    }
    this.hashType = hashType;
    this.hashCount = sizing.hashCount();
    this.bits = new byte[sizing.byteSize()];
    this.maxKeys = sizing.maxKeys();
  }

  /** Adds a key: sets its {@code hashCount} bits and counts it. */
  public void add(byte[] key, int offset, int length) {
    int h1 = hashType.hash(key, offset, length, 0);
    int h2 = hashType.hash(key, offset, length, h1);
    int bitSize = bits.length * Byte.SIZE;
    for (int i = 0; i < hashCount; i++) {
      int position = bitPosition(h1, h2, i, bitSize);
      bits[position >>> 3] |= (byte) (1 << (position & 7));
    }
    keyCount++;
  }

  /** Whether every bit of the key is set: false means the key was never added. */
  public boolean contains(byte[] key, int offset, int length) {
    return contains(
        Buf.wrap(bits), hashType, hashCount, MemorySegment.ofArray(key), offset, length);
  }

  /**
   * Probes a chunk payload: whether every bit of the key is set in {@code bits}, whose capacity is
   * the chunk's byte size.
   *
   * @throws CorruptBloomException if the payload is empty or larger than {@value #MAX_BYTE_SIZE}
   *     bytes
   */
  public static boolean contains(
      Buf bits, HashType hashType, int hashCount, MemorySegment key, long offset, int length) {
    int byteSize = bits.capacity();
    if (byteSize < 1 || byteSize > MAX_BYTE_SIZE) {
      throw new CorruptBloomException(
          "bloom chunk", 0, "a payload of 1.." + MAX_BYTE_SIZE + " bytes", byteSize + " bytes");
    }
    int h1 = hashType.hash(key, offset, length, 0);
    int h2 = hashType.hash(key, offset, length, h1);
    int bitSize = byteSize * Byte.SIZE;
    for (int i = 0; i < hashCount; i++) {
      int position = bitPosition(h1, h2, i, bitSize);
      if ((bits.getByte(position >>> 3) & (1 << (position & 7))) == 0) {
        return false;
      }
    }
    return true;
  }

  private static int bitPosition(int h1, int h2, int i, int bitSize) {
    return Math.abs((h1 + i * h2) % bitSize);
  }

  /**
   * Shrinks the array as far as the key count allows (see the class comment). Full chunks do not
   * fold; an empty chunk is left as it is, as in HBase.
   */
  public void fold() {
    if (keyCount == 0) {
      return;
    }
    int pieces = 1;
    int newByteSize = bits.length;
    int newMaxKeys = maxKeys;
    while ((newByteSize & 1) == 0 && newMaxKeys > (keyCount << 1)) {
      pieces <<= 1;
      newByteSize >>= 1;
      newMaxKeys >>= 1;
    }
    if (pieces == 1) {
      return;
    }
    for (int piece = 1; piece < pieces; piece++) {
      int from = piece * newByteSize;
      for (int i = 0; i < newByteSize; i++) {
        bits[i] |= bits[from + i];
      }
    }
    bits = Arrays.copyOf(bits, newByteSize);
    maxKeys = newMaxKeys;
  }

  /** The current byte size of the bit array (smaller after a fold). */
  public int byteSize() {
    return bits.length;
  }

  public int hashCount() {
    return hashCount;
  }

  public HashType hashType() {
    return hashType;
  }

  /** The number of keys the chunk takes before it is full (halved by each fold). */
  public int maxKeys() {
    return maxKeys;
  }

  /** The number of keys added. */
  public int keyCount() {
    return keyCount;
  }

  /** Whether the chunk holds {@link #maxKeys} keys. */
  public boolean isFull() {
    return keyCount >= maxKeys;
  }

  /** This chunk's sizing now: what a following chunk of the same bloom starts with. */
  public ChunkSizing sizing() {
    return new ChunkSizing(bits.length, hashCount, maxKeys);
  }

  /** A copy of the bit array: the {@code BLOOM_CHUNK} payload. */
  public byte[] toByteArray() {
    return bits.clone();
  }
}
