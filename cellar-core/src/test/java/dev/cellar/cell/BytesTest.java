package dev.cellar.cell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedOutputStream;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.util.ByteArrayHashKey;
import org.apache.hadoop.hbase.util.JenkinsHash;
import org.apache.hadoop.hbase.util.MurmurHash;
import org.apache.hadoop.hbase.util.MurmurHash3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class BytesTest {

  private static final long[] VLONG_EDGES = {
    0,
    1,
    -1,
    127,
    128,
    -112,
    -113,
    -120,
    -121,
    -128,
    -129,
    255,
    256,
    -256,
    -257,
    65535,
    65536,
    Integer.MAX_VALUE,
    Integer.MIN_VALUE,
    (long) Integer.MAX_VALUE + 1,
    (long) Integer.MIN_VALUE - 1,
    Long.MAX_VALUE,
    Long.MIN_VALUE,
    Long.MAX_VALUE >> 8,
    Long.MIN_VALUE >> 8
  };

  @Test
  void compareMatchesHBaseOnRandomRangesOfHeapAndOffHeapSegments(TestSeed seed) {
    Random random = new Random(seed.value());
    try (Arena arena = Arena.ofConfined()) {
      for (int i = 0; i < 20_000; i++) {
        byte[] left = randomKeyish(random);
        byte[] right = random.nextInt(4) == 0 ? left.clone() : randomKeyish(random);
        int lo = random.nextInt(left.length + 1);
        int ll = random.nextInt(left.length - lo + 1);
        int ro = random.nextInt(right.length + 1);
        int rl = random.nextInt(right.length - ro + 1);
        int expected =
            Integer.signum(
                org.apache.hadoop.hbase.util.Bytes.compareTo(left, lo, ll, right, ro, rl));
        assertEquals(expected, Integer.signum(Bytes.compare(left, lo, ll, right, ro, rl)));
        MemorySegment offHeap = arena.allocate(right.length + 3);
        MemorySegment.copy(MemorySegment.ofArray(right), 0, offHeap, 3, right.length);
        int segmentResult = Bytes.compare(MemorySegment.ofArray(left), lo, ll, offHeap, ro + 3, rl);
        assertEquals(expected, Integer.signum(segmentResult));
        assertEquals(
            expected == 0, Bytes.equals(MemorySegment.ofArray(left), lo, ll, offHeap, ro + 3, rl));
        assertEquals(expected == 0, Bytes.equals(left, lo, ll, right, ro, rl));
        assertEquals(
            expected == 0,
            Bytes.equals(offHeap, ro + 3, rl, Arrays.copyOfRange(left, lo, lo + ll)));
      }
    }
  }

  /**
   * Every length through the word-at-a-time path and past it to {@code mismatch}'s, equal ranges at
   * unaligned offsets of heap and off-heap segments, and one byte changed at each position.
   */
  @Test
  void equalsFindsADifferenceAtAnyPositionOfRangesOfAnyLength(TestSeed seed) {
    Random random = new Random(seed.value());
    try (Arena arena = Arena.ofConfined()) {
      for (int length = 0; length <= 80; length++) {
        byte[] bytes = new byte[length + 5];
        random.nextBytes(bytes);
        MemorySegment offHeap = arena.allocate(length + 3);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 5, offHeap, 3, length);
        String message = "length " + length;
        assertTrue(
            Bytes.equals(MemorySegment.ofArray(bytes), 5, length, offHeap, 3, length), message);
        for (int at = 0; at < length; at++) {
          byte kept = offHeap.get(ValueLayout.JAVA_BYTE, 3 + at);
          offHeap.set(ValueLayout.JAVA_BYTE, 3 + at, (byte) (kept ^ (1 << random.nextInt(8))));
          assertFalse(
              Bytes.equals(MemorySegment.ofArray(bytes), 5, length, offHeap, 3, length),
              message + " changed at " + at);
          offHeap.set(ValueLayout.JAVA_BYTE, 3 + at, kept);
        }
        if (length > 0) {
          assertFalse(
              Bytes.equals(MemorySegment.ofArray(bytes), 5, length, offHeap, 3, length - 1),
              message);
        }
      }
    }
  }

  /**
   * {@code mismatch} against the JDK's over ranges of every length through the word-at-a-time path
   * and past it, sharing a prefix of any length (so the first difference falls in every word and in
   * the tail), or equal, or one a prefix of the other, on heap and off-heap segments.
   */
  @Test
  void mismatchFindsTheFirstDifferenceAsTheJdkDoes(TestSeed seed) {
    Random random = new Random(seed.value());
    try (Arena arena = Arena.ofConfined()) {
      for (int i = 0; i < 20_000; i++) {
        int leftLength = random.nextInt(81);
        int rightLength = random.nextBoolean() ? leftLength : random.nextInt(81);
        byte[] left = new byte[leftLength + 2];
        random.nextBytes(left);
        MemorySegment right = arena.allocate(rightLength + 5);
        int shared = random.nextInt(Math.min(leftLength, rightLength) + 1);
        MemorySegment.copy(MemorySegment.ofArray(left), 2, right, 5, shared);
        for (int at = shared; at < rightLength; at++) {
          right.set(ValueLayout.JAVA_BYTE, 5 + at, (byte) random.nextInt(256));
        }
        MemorySegment heap = MemorySegment.ofArray(left);
        long expected = MemorySegment.mismatch(heap, 2, 2 + leftLength, right, 5, 5 + rightLength);
        assertEquals(
            expected,
            Bytes.mismatch(heap, 2, leftLength, right, 5, rightLength),
            "lengths " + leftLength + ", " + rightLength);
      }
    }
  }

  /** Short arrays over a tiny alphabet that straddles 0x7F/0x80, so ties and prefixes abound. */
  private static byte[] randomKeyish(Random random) {
    byte[] alphabet = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFF};
    byte[] bytes = new byte[random.nextInt(6)];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = alphabet[random.nextInt(alphabet.length)];
    }
    return bytes;
  }

  @Test
  void compareIsUnsignedAndPutsPrefixesFirst() {
    assertTrue(Bytes.compare(new byte[] {0x7F}, new byte[] {(byte) 0x80}) < 0);
    assertTrue(Bytes.compare(new byte[] {1, 2}, new byte[] {1, 2, 0}) < 0);
    assertTrue(Bytes.compare(Bytes.EMPTY, new byte[] {0}) < 0);
    assertEquals(0, Bytes.compare(new byte[] {1, 2}, new byte[] {1, 2}));
    MemorySegment a = MemorySegment.ofArray(new byte[] {9, (byte) 0xFF, 9});
    MemorySegment b = MemorySegment.ofArray(new byte[] {0x01});
    assertTrue(Bytes.compare(a, 1, 1, b, 0, 1) > 0);
    assertTrue(Bytes.compare(a, 1, 0, b, 0, 1) < 0);
  }

  @Test
  void compareRejectsRangesOutsideTheSegment() {
    MemorySegment a = MemorySegment.ofArray(new byte[4]);
    assertThrows(IndexOutOfBoundsException.class, () -> Bytes.compare(a, 2, 3, a, 0, 1));
  }

  @Test
  void hashesMatchHBaseOnRandomInputsOffsetsLengthsAndSeeds(TestSeed seed) {
    Random random = new Random(seed.value());
    try (Arena arena = Arena.ofConfined()) {
      for (int i = 0; i < 5_000; i++) {
        byte[] data = RandomCells.bytes(random, random.nextInt(80));
        int offset = random.nextInt(data.length + 1);
        int length = random.nextInt(data.length - offset + 1);
        int hashSeed = random.nextInt(4) == 0 ? 0 : random.nextInt();
        ByteArrayHashKey key = new ByteArrayHashKey(data, offset, length);
        MemorySegment offHeap = arena.allocate(Math.max(1, data.length));
        MemorySegment.copy(MemorySegment.ofArray(data), 0, offHeap, 0, data.length);
        Supplier<String> message = () -> "input " + Bytes.toStringBinary(data, offset, length);

        int murmur = MurmurHash.getInstance().hash(key, hashSeed);
        assertEquals(murmur, Bytes.murmurHash(data, offset, length, hashSeed), message);
        assertEquals(murmur, Bytes.murmurHash(offHeap, offset, length, hashSeed), message);

        int murmur3 = MurmurHash3.getInstance().hash(key, hashSeed);
        assertEquals(murmur3, Bytes.murmurHash3(data, offset, length, hashSeed), message);
        assertEquals(murmur3, Bytes.murmurHash3(offHeap, offset, length, hashSeed), message);

        int jenkins = JenkinsHash.getInstance().hash(key, hashSeed);
        assertEquals(jenkins, Bytes.jenkinsHash(data, offset, length, hashSeed), message);
        assertEquals(jenkins, Bytes.jenkinsHash(offHeap, offset, length, hashSeed), message);
      }
    }
  }

  @Test
  void murmurHashSignExtendsTailBytesAsHBaseDoes() {
    byte[] data = {1, 2, 3, 4, (byte) 0x80, (byte) 0xFF, 7};
    for (int length = 0; length <= data.length; length++) {
      ByteArrayHashKey key = new ByteArrayHashKey(data, 0, length);
      assertEquals(MurmurHash.getInstance().hash(key, 0), Bytes.murmurHash(data, 0, length, 0));
    }
  }

  @Test
  void hashesRejectRangesOutsideTheInput() {
    byte[] data = new byte[8];
    assertThrows(IndexOutOfBoundsException.class, () -> Bytes.murmurHash(data, 4, 5, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> Bytes.murmurHash3(data, -1, 2, 0));
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> Bytes.jenkinsHash(MemorySegment.ofArray(data), 0, 9, 0));
  }

  @Test
  void vlongEncodingMatchesHBaseAtEveryEdge() {
    for (long value : VLONG_EDGES) {
      byte[] expected = org.apache.hadoop.hbase.util.Bytes.vintToBytes(value);
      byte[] actual = new byte[expected.length + 2];
      int written = Bytes.writeVLong(actual, 1, value);
      assertEquals(expected.length, written, "size of " + value);
      assertEquals(expected.length, Bytes.vlongSize(value), "size of " + value);
      assertEquals(expected.length, Bytes.vlongSizeFromFirstByte(actual[1]), "size of " + value);
      assertArrayEquals(expected, Arrays.copyOfRange(actual, 1, 1 + written), "" + value);
      assertEquals(value, Bytes.readVLong(actual, 1));
      assertEquals(value, org.apache.hadoop.hbase.util.Bytes.readAsVLong(actual, 1));
    }
  }

  @Test
  void vlongDecodingMatchesHBaseOnRandomValues(TestSeed seed) {
    Random random = new Random(seed.value());
    for (int i = 0; i < 10_000; i++) {
      long value = random.nextLong() >> random.nextInt(64);
      byte[] hbase = org.apache.hadoop.hbase.util.Bytes.vintToBytes(value);
      assertEquals(value, Bytes.readVLong(MemorySegment.ofArray(hbase), 0));
      byte[] followed = Arrays.copyOf(hbase, hbase.length + 8);
      random.nextBytes(followed);
      System.arraycopy(hbase, 0, followed, 0, hbase.length);
      assertEquals(
          value, Bytes.readVLong(MemorySegment.ofArray(followed), 0), "followed by other bytes");
      assertEquals(hbase.length, Bytes.vlongSize(value));
    }
  }

  @Test
  void truncatedVLongIsRejectedWithItsOffset() {
    byte[] encoded = org.apache.hadoop.hbase.util.Bytes.vintToBytes(1L << 40);
    byte[] truncated = Arrays.copyOf(encoded, encoded.length - 1);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.readVLong(truncated, 0));
    assertEquals(
        "vlong at offset 0: expected 7 bytes, found 6 before the end of the segment",
        e.getMessage());
  }

  @Test
  void vintRejectsValuesWiderThanAnInt() {
    byte[] encoded = new byte[9];
    Bytes.writeVLong(encoded, 0, 1L << 33);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.readVInt(encoded, 0));
    assertTrue(e.getMessage().contains("fits an int, found 8589934592"), e.getMessage());
    Bytes.writeVLong(encoded, 0, Integer.MIN_VALUE);
    assertEquals(Integer.MIN_VALUE, Bytes.readVInt(MemorySegment.ofArray(encoded), 0));
  }

  @Test
  void varintsMatchProtobuf(TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    MemorySegment buffer = MemorySegment.ofArray(new byte[16]);
    for (int i = 0; i < 5_000; i++) {
      long value64 = random.nextLong() >>> random.nextInt(64);
      int value32 = (int) value64;

      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(expected);
      out.writeUInt64NoTag(value64);
      out.flush();
      int written = Bytes.writeVarint64(buffer, 1, value64);
      assertArrayEquals(
          expected.toByteArray(), buffer.asSlice(1, written).toArray(ValueLayout.JAVA_BYTE));
      assertEquals(CodedOutputStream.computeUInt64SizeNoTag(value64), Bytes.varint64Size(value64));
      assertEquals(written, Bytes.varintLength(buffer, 1));
      assertEquals(value64, Bytes.readVarint64(buffer, 1));

      expected.reset();
      out = CodedOutputStream.newInstance(expected);
      out.writeUInt64NoTag(Integer.toUnsignedLong(value32));
      out.flush();
      written = Bytes.writeVarint32(buffer, 0, value32);
      assertArrayEquals(
          expected.toByteArray(), buffer.asSlice(0, written).toArray(ValueLayout.JAVA_BYTE));
      assertEquals(written, Bytes.varint32Size(value32));
      assertEquals(value32, Bytes.readVarint32(buffer, 0));
    }
  }

  @Test
  void varintKnownVectors() {
    MemorySegment buffer = MemorySegment.ofArray(new byte[10]);
    assertEquals(2, Bytes.writeVarint32(buffer, 0, 300));
    assertEquals((byte) 0xAC, buffer.get(ValueLayout.JAVA_BYTE, 0));
    assertEquals((byte) 0x02, buffer.get(ValueLayout.JAVA_BYTE, 1));
    assertEquals(1, Bytes.varint32Size(0));
    assertEquals(5, Bytes.varint32Size(-1));
    assertEquals(10, Bytes.varint64Size(-1L));
  }

  @Test
  void malformedVarintsAreRejected() {
    MemorySegment tooLong32 =
        MemorySegment.ofArray(
            new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x10});
    IllegalArgumentException wide =
        assertThrows(IllegalArgumentException.class, () -> Bytes.readVarint32(tooLong32, 0));
    assertEquals(
        "varint at offset 0: expected a value of at most 32 bits, found final byte 0x10",
        wide.getMessage());
    MemorySegment unterminated = MemorySegment.ofArray(new byte[] {(byte) 0x80, (byte) 0x80});
    IllegalArgumentException truncated =
        assertThrows(IllegalArgumentException.class, () -> Bytes.readVarint64(unterminated, 0));
    assertEquals(
        "varint at offset 0: expected a byte at offset 2, found the end of the segment at 2",
        truncated.getMessage());
    byte[] eleven = new byte[11];
    Arrays.fill(eleven, (byte) 0x80);
    MemorySegment overlong = MemorySegment.ofArray(eleven);
    assertThrows(IllegalArgumentException.class, () -> Bytes.readVarint64(overlong, 0));
    IllegalArgumentException length =
        assertThrows(IllegalArgumentException.class, () -> Bytes.varintLength(overlong, 0));
    assertEquals("varint at offset 0: expected at most 10 bytes, found more", length.getMessage());
  }

  @Test
  void toStringBinaryMatchesHBase(TestSeed seed) {
    Random random = new Random(seed.value());
    for (int i = 0; i < 1_000; i++) {
      byte[] data = RandomCells.bytes(random, random.nextInt(40));
      int offset = random.nextInt(data.length + 1);
      int length = random.nextInt(data.length - offset + 1);
      assertEquals(
          org.apache.hadoop.hbase.util.Bytes.toStringBinary(data, offset, length),
          Bytes.toStringBinary(data, offset, length));
    }
    assertEquals(
        "a\\x5Cb\\x00\\xFF~ ", Bytes.toStringBinary(new byte[] {'a', '\\', 'b', 0, -1, '~', ' '}));
  }

  @Test
  void bigEndianAndUtf8ConversionsMatchHBase() {
    assertArrayEquals(org.apache.hadoop.hbase.util.Bytes.toBytes(-2L), Bytes.toBytes(-2L));
    assertArrayEquals(
        org.apache.hadoop.hbase.util.Bytes.toBytes(0x01020304), Bytes.toBytes(0x01020304));
    assertArrayEquals(
        org.apache.hadoop.hbase.util.Bytes.toBytes((short) -300), Bytes.toBytes((short) -300));
    byte[] framed = {9, 1, 2, 3, 4, 5, 6, 7, 8};
    assertEquals(org.apache.hadoop.hbase.util.Bytes.toLong(framed, 1), Bytes.toLong(framed, 1));
    assertEquals(org.apache.hadoop.hbase.util.Bytes.toInt(framed, 1), Bytes.toInt(framed, 1));
    assertEquals(org.apache.hadoop.hbase.util.Bytes.toShort(framed, 1), Bytes.toShort(framed, 1));
    String text = "räksmörgås \u20AC";
    assertArrayEquals(org.apache.hadoop.hbase.util.Bytes.toBytes(text), Bytes.toBytes(text));
    assertEquals(text, Bytes.toString(Bytes.toBytes(text)));
    byte[] padded = ("xx" + text).getBytes(StandardCharsets.UTF_8);
    assertEquals(text, Bytes.toString(MemorySegment.ofArray(padded), 2, padded.length - 2));
  }
}
