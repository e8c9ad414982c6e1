package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.schema.Compression;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(TestSeedExtension.class)
class BlockCodecTest {

  private final BufAllocator pool =
      new BufAllocator(new BufAllocatorConfig(true, 70_000, 64, 1000));
  private final BufAllocator smallPool =
      new BufAllocator(new BufAllocatorConfig(true, 4096, 512, 0));

  @AfterEach
  void closePools() {
    pool.close();
    smallPool.close();
  }

  /** Payload shapes: random bytes, text-like repetitive bytes, and runs of one value. */
  private static byte[] payload(Random random, int length) {
    byte[] bytes = new byte[length];
    switch (random.nextInt(3)) {
      case 0 -> random.nextBytes(bytes);
      case 1 -> {
        String words = "row-0000012345 family:qualifier value timestamp Put ";
        for (int i = 0; i < length; i++) {
          bytes[i] = (byte) words.charAt((i * 7 + random.nextInt(3)) % words.length());
        }
      }
      default -> Arrays.fill(bytes, (byte) random.nextInt());
    }
    return bytes;
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"GZ", "SNAPPY", "LZ4", "ZSTD"})
  void roundTripsBetweenEveryKindOfBuffer(Compression algorithm, TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    BlockCodec codec = BlockCodecs.of(algorithm);
    int[] sizes = {0, 1, 33, 4096, 65_536, 65_600, 300_000, 600_000};
    for (int size : sizes) {
      byte[] original = payload(random, size);
      byte[] compressed = codec.compress(original, 0, size);
      for (IntFunction<Buf> source : sources()) {
        for (IntFunction<Buf> target : sources()) {
          Buf in = source.apply(compressed.length + 3);
          in.putBytes(3, compressed, 0, compressed.length);
          Buf out = target.apply(size + 5);
          try {
            codec.decompress(in, 3, compressed.length, out, 5, size);
            assertArrayEquals(original, out.getBytes(5, size), algorithm + " size=" + size);
          } finally {
            in.release();
            out.release();
          }
        }
      }
    }
  }

  private IntFunction<Buf>[] sources() {
    @SuppressWarnings({"unchecked", "rawtypes"})
    IntFunction<Buf>[] sources =
        new IntFunction[] {
          (IntFunction<Buf>) pool::allocate,
          (IntFunction<Buf>) size -> Buf.wrap(new byte[size]),
          (IntFunction<Buf>) smallPool::allocate
        };
    return sources;
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"GZ", "SNAPPY", "LZ4", "ZSTD"})
  void corruptOrTruncatedInputFailsWithIoExceptionNeverAnythingElse(
      Compression algorithm, TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    BlockCodec codec = BlockCodecs.of(algorithm);
    byte[] original = payload(random, 20_000);
    byte[] compressed = codec.compress(original, 0, original.length);
    int detected = 0;
    for (int trial = 0; trial < 300; trial++) {
      byte[] damaged = compressed.clone();
      int length = damaged.length;
      if (trial % 3 == 0) {
        length = random.nextInt(damaged.length);
      } else {
        damaged[random.nextInt(damaged.length)] ^= (byte) (1 << random.nextInt(8));
      }
      Buf in = pool.allocate(Math.max(length, 1));
      Buf out = pool.allocate(original.length);
      try {
        in.putBytes(0, damaged, 0, length);
        codec.decompress(in, 0, length, out, 0, original.length);
      } catch (IOException expected) {
        detected++;
      } catch (RuntimeException | Error e) {
        throw new AssertionError(
            algorithm + " trial=" + trial + " threw " + e + " instead of an IOException", e);
      } finally {
        in.release();
        out.release();
      }
    }
    assertTrue(detected > 0, "some damage is detected by the codec itself");
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"GZ", "SNAPPY", "LZ4", "ZSTD"})
  void wrongExpectedSizeIsAnError(Compression algorithm) throws IOException {
    byte[] original = new byte[5000];
    Arrays.fill(original, (byte) 'a');
    byte[] compressed = BlockCodecs.of(algorithm).compress(original, 0, original.length);
    Buf in = Buf.wrap(compressed);
    Buf out = Buf.wrap(new byte[6000]);
    IOException error =
        assertThrows(
            IOException.class,
            () -> BlockCodecs.of(algorithm).decompress(in, 0, compressed.length, out, 0, 6000));
    assertTrue(error.getMessage().contains("6000"), error.getMessage());
    assertThrows(
        IOException.class,
        () -> BlockCodecs.of(algorithm).decompress(in, 0, compressed.length, out, 0, 4000));
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void trailerCodesAreHBasesOrdinals(Compression algorithm) {
    assertEquals(algorithm, Compression.fromCode(algorithm.code()));
    assertEquals(algorithm, Compression.fromName(algorithm.name()));
    String expected =
        switch (algorithm) {
          case LZO -> "0";
          case GZ -> "1";
          case NONE -> "2";
          case SNAPPY -> "3";
          case LZ4 -> "4";
          case BZIP2 -> "5";
          case ZSTD -> "6";
          case LZMA -> "7";
          case BROTLI -> "8";
        };
    assertEquals(expected, String.valueOf(algorithm.code()));
  }
}
