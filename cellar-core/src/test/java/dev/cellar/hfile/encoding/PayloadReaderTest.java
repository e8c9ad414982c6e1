package dev.cellar.hfile.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reader's copies against the bytes they stand for: every length a copy takes a path for (out
 * of the window, as two eight-byte moves, in bulk), at every offset of a payload whose limit falls
 * short of its segment.
 */
class PayloadReaderTest {

  private static final int PAYLOAD = 96;
  private static final int SEGMENT = PAYLOAD + 5;

  @Test
  void copiesMatchThePayloadForEveryLengthAndOffset() {
    Seeds.run("copies", random -> {
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
    });
  }

  @Test
  void copyOverWritesTheBytesAndAtMostEightInAll() {
    Seeds.run("copies over", random -> {
      byte[] bytes = randomBytes(random, SEGMENT);
      PayloadReader in = reader(bytes);
      for (int at = 0; at < PAYLOAD; at++) {
        for (int count = 0; at + count <= PAYLOAD && count <= Long.BYTES; count++) {
          byte[] target = randomBytes(random, 40);
          byte[] before = target.clone();
          int targetAt = random.nextInt(target.length - Long.BYTES + 1);
          in.position(at);
          in.copyOver(count, target, targetAt, "bytes");
          assertArrayEquals(Arrays.copyOfRange(bytes, at, at + count),
              Arrays.copyOfRange(target, targetAt, targetAt + count));
          assertArrayEquals(Arrays.copyOfRange(before, 0, targetAt),
              Arrays.copyOfRange(target, 0, targetAt));
          assertArrayEquals(Arrays.copyOfRange(before, targetAt + Long.BYTES, target.length),
              Arrays.copyOfRange(target, targetAt + Long.BYTES, target.length));
          assertEquals(at + count, in.position());
        }
      }
    });
  }

  @Test
  void copiesPastTheLimitAreMalformed() {
    PayloadReader in = reader(new byte[SEGMENT]);
    in.position(PAYLOAD - 3);
    assertThrows(MalformedBlockException.class, () -> in.copyTo(4, new byte[16], 0, "bytes"));
    assertThrows(MalformedBlockException.class, () -> in.copyOver(4, new byte[16], 0, "bytes"));
    assertThrows(MalformedBlockException.class, () -> in.copyTo(12, new byte[16], 0, "bytes"));
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
