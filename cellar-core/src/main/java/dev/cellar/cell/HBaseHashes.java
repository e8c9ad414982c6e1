package dev.cellar.cell;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The three hash functions HBase offers for bloom filters, bit-for-bit as HBase computes them, so
 * that bloom filters written by either side probe the same bits. Stateless and thread-safe; reached
 * through {@link Bytes}.
 *
 * <p>All three read the input as little-endian 32-bit words (HBase assembles the same words byte by
 * byte) and then mix a tail of fewer than four (or twelve) bytes:
 *
 * <ul>
 *   <li><b>MurmurHash 2</b> (HBase {@code MurmurHash}, hash type 1, the default): Austin Appleby's
 *       32-bit MurmurHash2 with {@code h = seed ^ length}, except that HBase sign-extends the tail
 *       bytes before xor-ing them in. Inputs whose last {@code length % 4} bytes include one {@code
 *       >= 0x80} therefore hash differently from the reference C code; we keep HBase's behaviour.
 *   <li><b>MurmurHash 3</b> (HBase {@code MurmurHash3}, hash type 2): MurmurHash3_x86_32, tail
 *       bytes unsigned.
 *   <li><b>Jenkins lookup3</b> (HBase {@code JenkinsHash}, hash type 0): Bob Jenkins' {@code
 *       hashlittle} with initial state {@code 0xdeadbeef + length + seed}; an empty input returns
 *       that state unmixed.
 * </ul>
 */
final class HBaseHashes {

  private static final ValueLayout.OfInt LE_INT =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private static final int MURMUR2_M = 0x5bd1e995;
  private static final int MURMUR2_R = 24;

  private static final int MURMUR3_C1 = 0xcc9e2d51;
  private static final int MURMUR3_C2 = 0x1b873593;

  private static final int JENKINS_INIT = 0xdeadbeef;
  private static final int JENKINS_BLOCK = 12;

  private HBaseHashes() {}

  static int murmur2(MemorySegment data, long offset, int length, int seed) {
    int h = seed ^ length;
    int blocks = length >>> 2;
    for (int i = 0; i < blocks; i++) {
      int k = data.get(LE_INT, offset + ((long) i << 2));
      k *= MURMUR2_M;
      k ^= k >>> MURMUR2_R;
      k *= MURMUR2_M;
      h *= MURMUR2_M;
      h ^= k;
    }
    long tail = offset + ((long) blocks << 2);
    switch (length & 3) {
      case 3 -> {
        h ^= signedByte(data, tail + 2) << 16;
        h ^= signedByte(data, tail + 1) << 8;
        h ^= signedByte(data, tail);
        h *= MURMUR2_M;
      }
      case 2 -> {
        h ^= signedByte(data, tail + 1) << 8;
        h ^= signedByte(data, tail);
        h *= MURMUR2_M;
      }
      case 1 -> {
        h ^= signedByte(data, tail);
        h *= MURMUR2_M;
      }
      default -> {}
    }
    h ^= h >>> 13;
    h *= MURMUR2_M;
    h ^= h >>> 15;
    return h;
  }

  static int murmur3(MemorySegment data, long offset, int length, int seed) {
    int h = seed;
    int blocks = length >>> 2;
    for (int i = 0; i < blocks; i++) {
      int k = data.get(LE_INT, offset + ((long) i << 2));
      h ^= murmur3MixK(k);
      h = Integer.rotateLeft(h, 13);
      h = h * 5 + 0xe6546b64;
    }
    long tail = offset + ((long) blocks << 2);
    int tailLength = length & 3;
    if (tailLength != 0) {
      h ^= murmur3MixK(partialWord(data, tail, tailLength));
    }
    h ^= length;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  private static int murmur3MixK(int k) {
    return Integer.rotateLeft(k * MURMUR3_C1, 15) * MURMUR3_C2;
  }

  static int jenkins(MemorySegment data, long offset, int length, int seed) {
    int a = JENKINS_INIT + length + seed;
    int b = a;
    int c = a;
    long position = offset;
    int remaining = length;
    while (remaining > JENKINS_BLOCK) {
      a += data.get(LE_INT, position);
      b += data.get(LE_INT, position + 4);
      c += data.get(LE_INT, position + 8);
      a -= c;
      a ^= Integer.rotateLeft(c, 4);
      c += b;
      b -= a;
      b ^= Integer.rotateLeft(a, 6);
      a += c;
      c -= b;
      c ^= Integer.rotateLeft(b, 8);
      b += a;
      a -= c;
      a ^= Integer.rotateLeft(c, 16);
      c += b;
      b -= a;
      b ^= Integer.rotateLeft(a, 19);
      a += c;
      c -= b;
      c ^= Integer.rotateLeft(b, 4);
      b += a;
      position += JENKINS_BLOCK;
      remaining -= JENKINS_BLOCK;
    }
    if (remaining == 0) {
      return c;
    }
    a += partialWord(data, position, Math.min(remaining, 4));
    if (remaining > 4) {
      b += partialWord(data, position + 4, Math.min(remaining - 4, 4));
    }
    if (remaining > 8) {
      c += partialWord(data, position + 8, remaining - 8);
    }
    c ^= b;
    c -= Integer.rotateLeft(b, 14);
    a ^= c;
    a -= Integer.rotateLeft(c, 11);
    b ^= a;
    b -= Integer.rotateLeft(a, 25);
    c ^= b;
    c -= Integer.rotateLeft(b, 16);
    a ^= c;
    a -= Integer.rotateLeft(c, 4);
    b ^= a;
    b -= Integer.rotateLeft(a, 14);
    c ^= b;
    c -= Integer.rotateLeft(b, 24);
    return c;
  }

  /** Little-endian word of {@code count} (1..4) bytes, missing high bytes zero. */
  private static int partialWord(MemorySegment data, long position, int count) {
    int word = 0;
    for (int i = count - 1; i >= 0; i--) {
      word = word << 8 | unsignedByte(data, position + i);
    }
    return word;
  }

  private static int signedByte(MemorySegment data, long position) {
    return data.get(ValueLayout.JAVA_BYTE, position);
  }

  private static int unsignedByte(MemorySegment data, long position) {
    return Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, position));
  }
}
