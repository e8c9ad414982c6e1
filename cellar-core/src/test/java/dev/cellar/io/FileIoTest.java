package dev.cellar.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(TestSeedExtension.class)
class FileIoTest {

  @TempDir Path dir;

  private final BufAllocator allocator =
      new BufAllocator(new BufAllocatorConfig(true, 4096, 64, 512));

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  private static ReadOnlyFile open(Path path, boolean mapped) throws IOException {
    ReadOnlyFile file = mapped ? ReadOnlyFile.openMapped(path) : ReadOnlyFile.open(path);
    assertEquals(mapped, file.isMapped());
    return file;
  }

  @ParameterizedTest(name = "mapped={0}")
  @ValueSource(booleans = {false, true})
  void positionalReadsIntoPooledBuffersMatchWhatWasAppended(boolean mapped, TestSeed seed)
      throws IOException {
    Random random = new Random(seed.value());
    byte[] content = new byte[200_000];
    random.nextBytes(content);
    Path path = dir.resolve("data");
    try (AppendOnlyFile out = AppendOnlyFile.create(path)) {
      int at = 0;
      while (at < content.length) {
        int length = Math.min(content.length - at, 1 + random.nextInt(20_000));
        if (random.nextBoolean()) {
          out.append(content, at, length);
        } else {
          Buf staging = allocator.allocate(length);
          staging.putBytes(0, content, at, length);
          out.append(staging, 0, length);
          staging.release();
        }
        at += length;
        assertEquals(at, out.position());
      }
      out.sync();
    }
    try (ReadOnlyFile in = open(path, mapped)) {
      assertEquals(content.length, in.size());
      for (int i = 0; i < 500; i++) {
        int length = 1 + random.nextInt(12_000);
        int position = random.nextInt(content.length - length + 1);
        Buf buf = allocator.allocate(length + 7);
        in.readFully(position, buf, 7, length);
        assertArrayEquals(
            Arrays.copyOfRange(content, position, position + length),
            buf.getBytes(7, length),
            "position=" + position);
        buf.release();
      }
    }
  }

  @ParameterizedTest(name = "mapped={0}")
  @ValueSource(booleans = {false, true})
  void readingPastTheEndNamesTheFileAndOffset(boolean mapped) throws IOException {
    Path path = dir.resolve("short");
    try (AppendOnlyFile out = AppendOnlyFile.create(path)) {
      out.append(new byte[100], 0, 100);
    }
    try (ReadOnlyFile in = open(path, mapped)) {
      Buf buf = allocator.allocate(1000);
      try {
        EOFException error = assertThrows(EOFException.class, () -> in.readFully(50, buf, 0, 60));
        assertTrue(error.getMessage().contains(path.toString()), error.getMessage());
        assertTrue(error.getMessage().contains("offset 50"), error.getMessage());
        assertTrue(error.getMessage().contains("ends at 100"), error.getMessage());
        assertEquals(50, in.read(50, buf, 0, 60));
      } finally {
        buf.release();
      }
    }
  }

  @Test
  void aMappedFileReadsBytesAppendedAfterItsOpenThroughItsChannel() throws IOException {
    Path path = dir.resolve("growing");
    byte[] first = new byte[5000];
    byte[] second = new byte[3000];
    new Random(1).nextBytes(first);
    new Random(2).nextBytes(second);
    try (AppendOnlyFile out = AppendOnlyFile.create(path)) {
      out.append(first, 0, first.length);
      out.sync();
      try (ReadOnlyFile in = ReadOnlyFile.openMapped(path)) {
        out.append(second, 0, second.length);
        out.sync();
        Buf buf = allocator.allocate(4000);
        in.readFully(3000, buf, 0, 4000);
        byte[] expected = new byte[4000];
        System.arraycopy(first, 3000, expected, 0, 2000);
        System.arraycopy(second, 0, expected, 2000, 2000);
        assertArrayEquals(expected, buf.getBytes(0, 4000));
        buf.release();
      }
    }
  }

  @Test
  void aClosedMappedFileRefusesReads() throws IOException {
    Path path = dir.resolve("closed");
    try (AppendOnlyFile out = AppendOnlyFile.create(path)) {
      out.append(new byte[1000], 0, 1000);
    }
    ReadOnlyFile in = ReadOnlyFile.openMapped(path);
    in.close();
    in.close();
    Buf buf = allocator.allocate(100);
    try {
      assertThrows(IOException.class, () -> in.readFully(0, buf, 0, 100));
    } finally {
      buf.release();
    }
  }

  @Test
  void createRefusesToOverwrite() throws IOException {
    Path path = dir.resolve("exists");
    AppendOnlyFile.create(path).close();
    assertThrows(FileAlreadyExistsException.class, () -> AppendOnlyFile.create(path));
  }

  @Test
  void aGatheringAppendWritesEveryBufferInOrderAndTruncateCutsIt() throws IOException {
    Path path = dir.resolve("gathered");
    byte[][] pieces = {{1, 2, 3}, {}, {4}, new byte[70_000]};
    pieces[3][69_999] = 9;
    try (AppendOnlyFile out = AppendOnlyFile.create(path)) {
      out.append(Arrays.stream(pieces).map(ByteBuffer::wrap).toArray(ByteBuffer[]::new));
      out.syncData();
      assertEquals(70_004, out.position());
    }
    byte[] written = Files.readAllBytes(path);
    assertArrayEquals(new byte[] {1, 2, 3, 4}, Arrays.copyOf(written, 4));
    assertEquals(9, written[70_003]);
    DurableFiles.truncate(path, 3);
    DurableFiles.syncDirectory(dir);
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(path));
  }
}
