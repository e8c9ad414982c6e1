package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.schema.Compression;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class TrailerTest {

  private static final String FILE = "t.hfile";
  private static final long FILE_SIZE = 1_000_000;

  private static Trailer sample() {
    return new Trailer(
        900_000,
        800_000,
        12_345,
        5_000_000,
        17,
        2,
        123_456,
        2,
        0,
        700_000,
        Trailer.COMPARATOR_NAME,
        Compression.SNAPPY,
        Trailer.MINOR_VERSION);
  }

  @Test
  void roundTrips() throws IOException {
    byte[] bytes = sample().toBytes();
    assertEquals(Trailer.SIZE, bytes.length);
    assertEquals("TRABLK\"$", new String(bytes, 0, 8, java.nio.charset.StandardCharsets.US_ASCII));
    assertEquals(3 | 3 << 24, ByteBuffer.wrap(bytes).getInt(Trailer.SIZE - 4));
    assertEquals(sample(), Trailer.parse(bytes, FILE, FILE_SIZE));
  }

  @Test
  void emptyFileOffsetsRoundTrip() throws IOException {
    Trailer empty =
        new Trailer(
            200, 100, 0, 0, 0, 0, 0, 1, -1, -1, Trailer.COMPARATOR_NAME, Compression.NONE, 3);
    assertEquals(empty, Trailer.parse(empty.toBytes(), FILE, FILE_SIZE));
  }

  @Test
  void badVersionMagicAndOffsetsAreCorruption() throws IOException {
    byte[] bytes = sample().toBytes();
    byte[] badVersion = bytes.clone();
    ByteBuffer.wrap(badVersion).putInt(Trailer.SIZE - 4, 2);
    assertMessage(badVersion, FILE_SIZE, "HFile version");
    byte[] badMagic = bytes.clone();
    badMagic[2] = 'X';
    assertMessage(badMagic, FILE_SIZE, "trailer magic");
    assertMessage(bytes, 800_000, "load_on_open_data_offset");
    assertMessage(bytes, 850_000, "file_info_offset");
    Trailer badCodec =
        new Trailer(
            900_000, 800_000, 0, 0, 0, 0, 0, 1, 0, 0, Trailer.COMPARATOR_NAME, Compression.LZO, 3);
    assertMessage(badCodec.toBytes(), FILE_SIZE, "compression_codec");
  }

  @Test
  void nonZeroPaddingAndUnknownComparatorsAreCorruption() throws IOException {
    byte[] bytes = sample().toBytes();
    bytes[3000] = 1;
    assertMessage(bytes, FILE_SIZE, "trailer padding");
    Trailer meta =
        new Trailer(
            900_000,
            800_000,
            0,
            0,
            0,
            0,
            0,
            1,
            0,
            0,
            "org.apache.hadoop.hbase.KeyValue$MetaComparator",
            Compression.NONE,
            3);
    assertMessage(meta.toBytes(), FILE_SIZE, "comparator_class_name");
  }

  @Test
  void randomDamageNeverEscapesAsAnythingButCorruption(TestSeed seed) throws IOException {
    Random random = new Random(seed.value());
    byte[] bytes = sample().toBytes();
    for (int trial = 0; trial < 2000; trial++) {
      byte[] damaged = bytes.clone();
      damaged[random.nextInt(120)] ^= (byte) (1 << random.nextInt(8));
      try {
        Trailer.parse(damaged, FILE, FILE_SIZE);
      } catch (CorruptHFileException expected) {
        assertTrue(expected.getMessage().startsWith(FILE), expected.getMessage());
      } catch (RuntimeException e) {
        throw new AssertionError("trial " + trial, e);
      }
    }
  }

  private static void assertMessage(byte[] bytes, long fileSize, String expected) {
    CorruptHFileException error =
        assertThrows(CorruptHFileException.class, () -> Trailer.parse(bytes, FILE, fileSize));
    assertTrue(error.getMessage().contains(expected), error.getMessage());
  }
}
