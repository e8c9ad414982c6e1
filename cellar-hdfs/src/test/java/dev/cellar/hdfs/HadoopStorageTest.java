package dev.cellar.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.config.Settings;
import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.ReadOnlyFile;
import dev.cellar.io.StorageLocation;
import dev.cellar.memory.Buf;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HadoopStorage} on a MiniDFSCluster of two DataNodes, and on a local Hadoop file system.
 */
@ExtendWith(TestSeedExtension.class)
class HadoopStorageTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(2);
  private static StorageLocation location;
  private static HadoopStorage storage;

  private final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.DEFAULT);

  @TempDir Path local;

  @BeforeAll
  static void resolve() throws IOException {
    location = hdfs.location("/storage", hdfs.config());
    storage = (HadoopStorage) location.storage();
  }

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  private static byte[] randomBytes(int length, long seed) {
    byte[] bytes = new byte[length];
    new SplittableRandom(seed).nextBytes(bytes);
    return bytes;
  }

  private Path write(String name, byte[] bytes) throws IOException {
    Path path = location.directory().resolve(name);
    try (AppendOnlyFile out = storage.create(path)) {
      out.append(bytes, 0, bytes.length / 2);
      out.append(
          new ByteBuffer[] {
            ByteBuffer.allocateDirect(bytes.length - bytes.length / 2)
                .put(bytes, bytes.length / 2, bytes.length - bytes.length / 2)
                .flip()
          });
      assertEquals(bytes.length, out.position());
      out.sync();
    }
    return path;
  }

  @Test
  void preadsFillPooledOffHeapBuffersWithoutAHeapCopy() throws Exception {
    byte[] bytes = randomBytes(300_000, 1);
    Path path = write("direct", bytes);
    long heapBefore = HadoopReadOnlyFile.heapFallbackBytes();
    try (ReadOnlyFile file = storage.openRead(path)) {
      assertTrue(((HadoopReadOnlyFile) file).readsDirectly(), "HDFS offers in:preadbytebuffer");
      assertEquals(bytes.length, file.size());
      Buf buf = allocator.allocate(100_000);
      try {
        assertTrue(buf.isDirect());
        file.readFully(150_000, buf, 0, 100_000);
        assertArrayEquals(
            java.util.Arrays.copyOfRange(bytes, 150_000, 250_000), buf.getBytes(0, 100_000));
        assertEquals(50_000, file.read(250_000, buf, 0, 100_000), "a read stops at the end");
        assertThrows(java.io.EOFException.class, () -> file.readFully(250_000, buf, 0, 60_000));
      } finally {
        buf.release();
      }
    }
    assertEquals(heapBefore, HadoopReadOnlyFile.heapFallbackBytes());
  }

  @Test
  void concurrentPreadsShareOneStream(TestSeed seed) throws Exception {
    byte[] bytes = randomBytes(1 << 20, 2);
    Path path = write("shared", bytes);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try (ReadOnlyFile file = storage.openRead(path)) {
      List<Future<?>> results = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long threadSeed = seed.value() + t;
        results.add(
            threads.submit(
                () -> {
                  SplittableRandom random = new SplittableRandom(threadSeed);
                  for (int i = 0; i < 200; i++) {
                    int length = 1 + random.nextInt(65_536);
                    int offset = random.nextInt(bytes.length - length);
                    Buf buf = allocator.allocate(length);
                    try {
                      file.readFully(offset, buf, 0, length);
                      assertArrayEquals(
                          java.util.Arrays.copyOfRange(bytes, offset, offset + length),
                          buf.getBytes(0, length),
                          "read " + i);
                    } finally {
                      buf.release();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> result : results) {
        result.get();
      }
    } finally {
      threads.shutdown();
    }
  }

  @Test
  void aStreamWithoutByteBufferPreadsIsReadThroughTheHeapAndCounted() throws Exception {
    byte[] bytes = randomBytes(10_000, 3);
    FSDataInputStream in = new FSDataInputStream(new ArrayPositionedStream(bytes));
    long heapBefore = HadoopReadOnlyFile.heapFallbackBytes();
    try (HadoopReadOnlyFile file =
        new HadoopReadOnlyFile(
            Path.of("/array"),
            new org.apache.hadoop.fs.Path("/array"),
            in,
            storage.fileSystem(),
            true)) {
      assertFalse(file.readsDirectly());
      Buf buf = allocator.allocate(4_000);
      try {
        file.readFully(5_000, buf, 0, 4_000);
        assertArrayEquals(
            java.util.Arrays.copyOfRange(bytes, 5_000, 9_000), buf.getBytes(0, 4_000));
      } finally {
        buf.release();
      }
    }
    assertEquals(heapBefore + 4_000, HadoopReadOnlyFile.heapFallbackBytes());
  }

  @Test
  void aCorruptReplicaIsReadAgainFromAGoodOneThroughHdfsChecksums() throws Exception {
    byte[] bytes = randomBytes(200_000, 4);
    Path path = write("corrupt", bytes);
    ExtendedBlock block = DFSTestUtil.getFirstBlock(storage.fileSystem(), storage.hadoopPath(path));
    hdfs.cluster().corruptReplica(0, block);
    try (ReadOnlyFile file = storage.openRead(path)) {
      Buf buf = allocator.allocate(bytes.length);
      try {
        assertTrue(file.readFullyVerifiedByStorage(0, buf, 0, bytes.length));
        assertArrayEquals(
            bytes, buf.getBytes(0, bytes.length), "the checksummed read skips the corrupt replica");
      } finally {
        buf.release();
      }
    }
  }

  @Test
  void renameReplacesItsTargetAndListingIsSorted() throws Exception {
    Path directory = location.directory().resolve("rename");
    storage.createDirectories(directory);
    write("rename/b", new byte[] {1});
    write("rename/a.tmp", new byte[] {2, 2});
    storage.rename(directory.resolve("a.tmp"), directory.resolve("b"));
    assertEquals(List.of(directory.resolve("b")), storage.list(directory));
    assertArrayEquals(new byte[] {2, 2}, storage.readAllBytes(directory.resolve("b")));
    assertTrue(storage.isFile(directory.resolve("b")));
    assertTrue(storage.isDirectory(directory));
    assertFalse(storage.isFile(directory.resolve("missing")));
    assertEquals(List.of(), storage.list(directory.resolve("missing")));
    assertTrue(storage.deleteIfExists(directory.resolve("b")));
    assertFalse(storage.deleteIfExists(directory.resolve("b")));
  }

  @Test
  void truncateCutsAClosedFile() throws Exception {
    byte[] bytes = randomBytes(5_000, 5);
    Path path = write("cut", bytes);
    storage.truncate(path, 1234);
    assertArrayEquals(java.util.Arrays.copyOf(bytes, 1234), storage.readAllBytes(path));
  }

  @Test
  void aStreamThatCannotHsyncIsRefusedUnlessTheUnsafeSettingAllowsIt() throws Exception {
    URI root = URI.create("file:///");
    Path file = local.resolve("unsafe");
    try (HadoopStorage unsafe =
        HadoopStorage.connect(
            root,
            HdfsSettings.hadoopConfiguration(Settings.empty()),
            HdfsSettings.from(Settings.empty()))) {
      IOException refused = assertThrows(IOException.class, () -> unsafe.create(file));
      assertTrue(
          refused.getMessage().contains("hbase.unsafe.stream.capability.enforce=false"),
          refused.getMessage());
      assertFalse(unsafe.isFile(file), "the refused file is deleted");
    }
    Settings allowing = Settings.of(Map.of("hbase.unsafe.stream.capability.enforce", "false"));
    try (HadoopStorage unsafe =
            HadoopStorage.connect(
                root, HdfsSettings.hadoopConfiguration(allowing), HdfsSettings.from(allowing));
        AppendOnlyFile out = unsafe.create(file)) {
      out.append(new byte[] {7}, 0, 1);
      out.syncData();
    }
  }

  @Test
  void anUnreachableNameNodeIsOneLineNamingIt() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> StorageLocation.resolve("hdfs://127.0.0.1:1/db", Settings.empty()));
    assertTrue(
        e.getMessage()
            .startsWith(
                "hdfs://127.0.0.1:1/db: cannot reach the file system at"
                    + " hdfs://127.0.0.1:1/: "),
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }
}
