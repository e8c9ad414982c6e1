package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.schema.DataBlockEncoding;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The reader's copies against the bytes they stand for: every length a copy takes a path for (out
 * of the window, as two eight-byte moves, in bulk), at every offset of a payload whose limit falls
 * short of its segment; a header's three compressed ints read at once against the same read one by
 * one.
 */
@ExtendWith(TestSeedExtension.class)
class PayloadReaderTest {

  private static final int PAYLOAD = 96;
  private static final int SEGMENT = PAYLOAD + 5;

  @Test
  void copiesMatchThePayloadForEveryLengthAndOffset(TestSeed seed) {
    Random random = new Random(seed.value());
    byte[] bytes = randomBytes(random, SEGMENT);
    PayloadReader in = reader(bytes);
    for (int at = 0; at < PAYLOAD; at++) {
      for (int count = 0; at + count <= PAYLOAD && count <= 40; count++) {
        byte[] target = randomBytes(random, count + 20);
        byte[] expected = target.clone();
        int targetAt = random.nextInt(20);
        System.arraycopy(bytes, at, expected, targetAt, count);
        in.position(at);
        in.copyTo(count, target, targetAt, "bytes");
        assertArrayEquals(expected, target, "copy of " + count + " bytes at " + at);
        assertEquals(at + count, in.position());
      }
    }
  }

  @Test
  void copyOverWritesTheBytesAndAtMostEightInAll(TestSeed seed) {
    Random random = new Random(seed.value());
    byte[] bytes = randomBytes(random, SEGMENT);
    PayloadReader in = reader(bytes);
    for (int at = 0; at < PAYLOAD; at++) {
      for (int count = 0; at + count <= PAYLOAD && count <= Long.BYTES; count++) {
        byte[] target = randomBytes(random, 40);
        byte[] before = target.clone();
        int targetAt = random.nextInt(target.length - Long.BYTES + 1);
        in.position(at);
        in.copyOver(count, target, targetAt, "bytes");
        assertArrayEquals(
            Arrays.copyOfRange(bytes, at, at + count),
            Arrays.copyOfRange(target, targetAt, targetAt + count));
        assertArrayEquals(
            Arrays.copyOfRange(before, 0, targetAt), Arrays.copyOfRange(target, 0, targetAt));
        assertArrayEquals(
            Arrays.copyOfRange(before, targetAt + Long.BYTES, target.length),
            Arrays.copyOfRange(target, targetAt + Long.BYTES, target.length));
        assertEquals(at + count, in.position());
      }
    }
  }

  @Test
  void copiesPastTheLimitAreMalformed() {
    PayloadReader in = reader(new byte[SEGMENT]);
    in.position(PAYLOAD - 3);
    assertThrows(MalformedBlockException.class, () -> in.copyTo(4, new byte[16], 0, "bytes"));
    assertThrows(MalformedBlockException.class, () -> in.copyOver(4, new byte[16], 0, "bytes"));
    assertThrows(MalformedBlockException.class, () -> in.copyTo(12, new byte[16], 0, "bytes"));
  }

  @Test
  void threeCompressedIntsReadAsOneByOne(TestSeed seed) {
    Random random = new Random(seed.value());
    byte[] bytes = randomBytes(random, SEGMENT);
    for (int at = 0; at < PAYLOAD; at++) {
      if (random.nextBoolean()) {
        plantHeader(random, bytes, at);
      }
      PayloadReader fast = reader(bytes);
      PayloadReader slow = reader(bytes);
      fast.position(at);
      slow.position(at);
      if (random.nextBoolean() && at >= 2) {
        fast.readByte("a byte before");
        fast.position(at - 1 - random.nextInt(2));
        fast.readByte("a byte before");
        fast.position(at);
      }
      boolean taken = fast.readThreeCompressedInts();
      int[] expected = new int[3];
      try {
        for (int i = 0; i < 3; i++) {
          expected[i] = slow.readCompressedInt("an int");
        }
      } catch (MalformedBlockException e) {
        assertFalse(taken, "ints read past the limit or malformed at " + at);
        continue;
      }
      if (taken) {
        assertArrayEquals(
            expected,
            new int[] {fast.firstInt(), fast.secondInt(), fast.thirdInt()},
            "ints at " + at);
        assertEquals(slow.position(), fast.position());
      } else {
        assertEquals(at, fast.position());
        assertTrue(slow.position() - at > 3, "three one-byte ints at " + at + " read one by one");
      }
    }
  }

  /** Writes three compressed ints of one or two bytes at {@code at}, as far as the payload goes. */
  private static void plantHeader(Random random, byte[] bytes, int at) {
    int to = at;
    for (int i = 0; i < 3; i++) {
      int value = random.nextBoolean() ? random.nextInt(128) : random.nextInt(1 << 14);
      do {
        int group = value & 0x7F;
        value >>>= 7;
        if (to < PAYLOAD) {
          bytes[to] = (byte) (value == 0 ? group : group | 0x80);
        }
        to++;
      } while (value != 0);
    }
  }

  private static PayloadReader reader(byte[] bytes) {
    PayloadReader in = new PayloadReader(DataBlockEncoding.PREFIX);
    in.reset(MemorySegment.ofArray(bytes), PAYLOAD);
    return in;
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
