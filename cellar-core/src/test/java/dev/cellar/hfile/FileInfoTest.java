package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestSeedExtension.class)
class FileInfoTest {

  @Test
  void roundTripsSortedEntriesAndTypedValues() throws IOException {
    FileInfo info = new FileInfo();
    info.putInt(FileInfo.AVG_KEY_LEN, 42);
    info.putLong(FileInfo.MAX_SEQ_ID_KEY, 1L << 40);
    info.putBoolean(FileInfo.MAJOR_COMPACTION_KEY, true);
    info.put(FileInfo.DATA_BLOCK_ENCODING, "FAST_DIFF".getBytes(StandardCharsets.US_ASCII));
    info.put(FileInfo.LASTKEY, new byte[] {0, 1, (byte) 0xFF});
    byte[] payload = info.toPayload();
    assertEquals("PBUF", new String(payload, 0, 4, StandardCharsets.US_ASCII));
    FileInfo parsed = FileInfo.parse(Buf.wrap(payload), "f", 10);
    assertEquals(42, parsed.getInt(FileInfo.AVG_KEY_LEN, 0));
    assertEquals(1L << 40, parsed.getLong(FileInfo.MAX_SEQ_ID_KEY, 0));
    assertTrue(parsed.getBoolean(FileInfo.MAJOR_COMPACTION_KEY, false));
    assertFalse(parsed.getBoolean("NOT_THERE", false));
    assertEquals("FAST_DIFF", parsed.getString(FileInfo.DATA_BLOCK_ENCODING, null));
    assertArrayEquals(new byte[] {0, 1, (byte) 0xFF}, parsed.get(FileInfo.LASTKEY));
    List<String> order = new ArrayList<>();
    for (byte[] key : parsed.entries().keySet()) {
      order.add(new String(key, StandardCharsets.US_ASCII));
    }
    assertEquals(
        List.of(
            "DATA_BLOCK_ENCODING",
            "MAJOR_COMPACTION_KEY",
            "MAX_SEQ_ID_KEY",
            "hfile.AVG_KEY_LEN",
            "hfile.LASTKEY"),
        order,
        "upper-case keys sort before hfile. keys");
    assertArrayEquals(payload, parsed.toPayload());
  }

  @Test
  void wrongValueWidthsAndDamageAreCorruption(TestSeed seed) throws IOException {
    FileInfo info = new FileInfo();
    info.put(FileInfo.AVG_KEY_LEN, new byte[] {1, 2});
    FileInfo parsed = FileInfo.parse(Buf.wrap(info.toPayload()), "f.hfile", 99);
    CorruptHFileException error =
        assertThrows(CorruptHFileException.class, () -> parsed.getInt(FileInfo.AVG_KEY_LEN, 0));
    assertTrue(error.getMessage().contains("f.hfile at offset 99"), error.getMessage());
    assertThrows(
        CorruptHFileException.class,
        () -> FileInfo.parse(Buf.wrap("XBUF".getBytes(StandardCharsets.US_ASCII)), "f", 0));
    Random random = new Random(seed.value());
    info.putLong(FileInfo.MAX_SEQ_ID_KEY, 7);
    info.put(FileInfo.LASTKEY, new byte[40]);
    byte[] payload = info.toPayload();
    for (int trial = 0; trial < 2000; trial++) {
      byte[] damaged = payload.clone();
      damaged[4 + random.nextInt(damaged.length - 4)] ^= (byte) (1 << random.nextInt(8));
      int length = random.nextBoolean() ? damaged.length : random.nextInt(damaged.length);
      try {
        FileInfo.parse(Buf.wrap(java.util.Arrays.copyOf(damaged, length)), "f", 0);
      } catch (CorruptHFileException expected) {
        assertTrue(expected.getMessage().startsWith("f at offset 0"));
      } catch (RuntimeException e) {
        throw new AssertionError("trial " + trial, e);
      }
    }
  }
}
