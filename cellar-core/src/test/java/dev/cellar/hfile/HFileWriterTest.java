package dev.cellar.hfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HFileWriterTest {

  @TempDir Path dir;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  private static KeyValue put(String row, long ts) {
    return KeyValue.create(
        row.getBytes(),
        "f".getBytes(),
        "q".getBytes(),
        ts,
        CellType.PUT,
        ("v-" + row + ts).getBytes());
  }

  @Test
  void anOutOfOrderCellIsRejectedByNameAndTheFileStaysGood() throws IOException {
    Path path = dir.resolve("f.hfile");
    try (HFileWriter writer = HFileWriter.create(path, HFileContext.builder().build())) {
      writer.append(put("b", 5));
      writer.append(put("b", 3));
      IllegalArgumentException error =
          assertThrows(IllegalArgumentException.class, () -> writer.append(put("a", 1)));
      assertTrue(error.getMessage().contains(path.toString()), error.getMessage());
      assertTrue(error.getMessage().contains("a/f:q/1/Put"), error.getMessage());
      assertTrue(error.getMessage().contains("b/f:q/3/Put"), error.getMessage());
      assertThrows(IllegalArgumentException.class, () -> writer.append(put("b", 4)));
      writer.append(put("c", 1));
    }
    try (HFileReader reader = HFileReader.open(path, allocator);
        HFileScanner scanner = reader.scanner(false)) {
      assertEquals(3, HFileVerifier.verify(reader).cells());
      assertTrue(scanner.seekTo());
      assertEquals("b/f:q/5/Put", describe(scanner));
      assertTrue(scanner.next());
      assertEquals("b/f:q/3/Put", describe(scanner));
      assertTrue(scanner.next());
      assertEquals("c/f:q/1/Put", describe(scanner));
      assertFalse(scanner.next());
    }
  }

  private static String describe(HFileScanner scanner) {
    String text = scanner.current().toString();
    return text.substring(0, text.indexOf("/vlen"));
  }

  @Test
  void reservedFileInfoKeysAndUseAfterCloseAreRefused() throws IOException {
    Path path = dir.resolve("f.hfile");
    HFileWriter writer = HFileWriter.create(path, HFileContext.builder().build());
    assertThrows(
        IllegalArgumentException.class, () -> writer.appendFileInfo("hfile.LASTKEY", new byte[1]));
    writer.appendFileInfo("MAX_SEQ_ID_KEY", dev.cellar.cell.Bytes.toBytes(42L));
    writer.close();
    assertThrows(IllegalStateException.class, () -> writer.append(put("a", 1)));
    try (HFileReader reader = HFileReader.open(path, allocator)) {
      assertEquals(42L, reader.fileInfo().getLong("MAX_SEQ_ID_KEY", 0));
    }
  }

  @Test
  void anEmptyFileIsValid() throws IOException {
    Path path = dir.resolve("empty.hfile");
    HFileWriter.create(path, HFileContext.builder().build()).close();
    try (HFileReader reader = HFileReader.open(path, allocator);
        HFileScanner scanner = reader.scanner(true)) {
      assertEquals(0, reader.entryCount());
      assertNull(reader.firstKey());
      assertNull(reader.lastKey());
      assertNull(reader.midKey());
      assertFalse(scanner.seekTo());
      assertEquals(HFileScanner.BEFORE_FILE, scanner.seekTo(put("a", 1)));
      assertFalse(reader.mightContain("a".getBytes(), null));
      assertEquals(0, HFileVerifier.verify(reader).cells());
    }
  }

  @Test
  void metaBlocksAreFoundByExactName() throws IOException {
    Path path = dir.resolve("meta.hfile");
    try (HFileWriter writer = HFileWriter.create(path, HFileContext.builder().build())) {
      writer.append(put("a", 1));
      writer.appendMetaBlock("zeta", "last".getBytes());
      writer.appendMetaBlock("alpha", "first".getBytes());
    }
    try (HFileReader reader = HFileReader.open(path, allocator)) {
      HFileBlock alpha = reader.metaBlock("alpha");
      try {
        assertArrayEquals("first".getBytes(), alpha.payload().getBytes(0, alpha.payloadSize()));
      } finally {
        alpha.release();
      }
      assertNull(reader.metaBlock("beta"));
      assertEquals(2, reader.trailer().metaIndexCount());
    }
  }
}
