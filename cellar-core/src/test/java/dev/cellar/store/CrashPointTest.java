package dev.cellar.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.config.Settings;
import dev.cellar.hfile.HFileContext;
import dev.cellar.io.FaultyStorage;
import dev.cellar.io.PowerCut;
import dev.cellar.io.PowerLossStorage;
import dev.cellar.io.Storage;
import dev.cellar.memory.BufAllocator;
import dev.cellar.memory.BufAllocatorConfig;
import dev.cellar.row.CollectedRow;
import dev.cellar.schema.Durability;
import dev.cellar.store.memstore.ChunkPool;
import dev.cellar.store.memstore.MemStoreConfig;
import dev.cellar.store.wal.WalConfig;
import dev.cellar.store.wal.WriteAheadLog;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crashes at each file-system operation of a table's life in turn (open, flushes of puts and
 * deletes over two families, a minor and a major compaction, close), reopens, and compares the
 * table with an oracle of the acknowledged writes: none is lost, no deleted cell is back, the
 * reopened table flushes and compacts to the same contents, and every pooled buffer is returned. A
 * crash is either the operation failing (the process stops, nothing is flushed, what was written
 * stays) or a power loss just before it ({@link PowerLossStorage}: what was not forced, bytes and
 * directory entries, is lost, the log's segments included). A write the crash interrupted was not
 * acknowledged, and may be found or not. By default every tenth operation is a crash point, from a
 * seeded offset; {@code -Dcellar.crash.allPoints=true} (through {@code -Dcellar.test.extraJvmArgs})
 * makes each one a crash point, in a minute or two. A subclass runs it on another storage ({@link
 * #baseStorage()}) with that storage's power-loss model ({@link #powerCut}).
 */
@ExtendWith(TestSeedExtension.class)
class CrashPointTest {

  private static final byte[][] FAMILIES = {Bytes.toBytes("a"), Bytes.toBytes("b")};
  private static final byte[] QUALIFIER = Bytes.toBytes("q");

  @TempDir Path root;

  private final MemStoreConfig memStoreConfig = MemStoreConfig.from(Settings.empty());

  /** What the file operations go through, and how a run comes back from its crash. */
  private interface CrashableStorage {
    Storage storage();

    /** How many file operations ran so far. */
    int operations();

    /** Makes operation {@code index} the crash point. */
    void crashAt(int index);

    /** After the crash and before reopening: what the crash leaves behind. */
    void afterCrash() throws IOException;
  }

  /** The storage the runs' files live on: the local disk here, another in a subclass. */
  Storage baseStorage() {
    return Storage.local();
  }

  /** The directory of the run {@code name}, on {@link #baseStorage()}. */
  Path runDirectory(String name) {
    return root.resolve(name);
  }

  /** Every how many operations a run crashes by default (each run costs more on a slow storage). */
  int stride() {
    return 10;
  }

  /**
   * A storage over {@link #baseStorage()} that loses power on command, keeping what it must put
   * back under {@code stash} (a local directory of the run's own): {@link PowerLossStorage} here.
   */
  PowerCut powerCut(Path stash) throws IOException {
    return new PowerLossStorage(stash);
  }

  /** A crash point is a failed operation; what the store wrote stays as written. */
  private CrashableStorage failing() {
    FaultyStorage storage = new FaultyStorage(baseStorage());
    return new CrashableStorage() {
      public Storage storage() {
        return storage;
      }

      public int operations() {
        return storage.operations();
      }

      public void crashAt(int index) {
        storage.failAt(index);
      }

      public void afterCrash() {
        storage.heal();
      }
    };
  }

  /** A crash point is a power loss: what was not durable is lost. */
  private CrashableStorage losingPower(Path stash) throws IOException {
    PowerCut storage = powerCut(stash);
    return new CrashableStorage() {
      public Storage storage() {
        return storage.storage();
      }

      public int operations() {
        return storage.operations();
      }

      public void crashAt(int index) {
        storage.cutAt(index);
      }

      public void afterCrash() throws IOException {
        storage.powerLoss();
      }
    };
  }

  /** One run of the scenario in its own directory. */
  private final class Run {
    final Path directory;
    final CrashableStorage crashable;
    final Storage storage;
    final BufAllocator allocator = new BufAllocator(BufAllocatorConfig.from(Settings.empty()));
    final ChunkPool chunkPool = new ChunkPool(memStoreConfig);
    final TreeMap<String, String> oracle = new TreeMap<>();

    /** The write the crash interrupted, unacknowledged: its row may show it or not. */
    String uncertainRow;

    String uncertainValue;
    WriteAheadLog wal;
    Region region;

    Run(Path directory, CrashableStorage crashable) {
      this.directory = directory;
      this.crashable = crashable;
      this.storage = crashable.storage();
    }

    Region open() throws IOException {
      Region.Services services =
          InlineServices.of(
              storage,
              wal,
              null,
              allocator,
              chunkPool,
              memStoreConfig,
              Settings.of(Map.of("hbase.hstore.compaction.min", "2")));
      List<FamilySettings> families = new ArrayList<>();
      for (byte[] family : FAMILIES) {
        families.add(
            new FamilySettings(
                family,
                HFileContext.builder().includesMvcc(true).blockSize(256).build(),
                false,
                true,
                1,
                Long.MAX_VALUE,
                0));
      }
      return Region.open(directory.resolve("t"), "t", families, services, 0);
    }

    void write(int from, int to, CellType type) throws IOException {
      for (int i = from; i < to; i++) {
        String row = String.format("row-%04d", i);
        byte[] rowBytes = Bytes.toBytes(row);
        String value = type == CellType.PUT ? "v" + i + "-" + oracle.size() : null;
        List<KeyValue> cells = new ArrayList<>();
        for (byte[] family : FAMILIES) {
          cells.add(
              KeyValue.create(
                  rowBytes,
                  family,
                  QUALIFIER,
                  KeyValue.LATEST_TIMESTAMP,
                  type,
                  value == null ? Bytes.EMPTY : Bytes.toBytes(value)));
        }
        uncertainRow = row;
        uncertainValue = value;
        region.mutate(
            List.of(new RowMutation(rowBytes, cells, Durability.SYNC_WAL)),
            System.currentTimeMillis());
        uncertainRow = null;
        if (value == null) {
          oracle.remove(row);
        } else {
          oracle.put(row, value);
        }
      }
    }

    /** The whole scenario; stops at the first failure, as a crash would. */
    void scenario() throws IOException {
      storage.createDirectories(directory);
      storage.syncDirectory(directory.getParent());
      wal = WriteAheadLog.open(storage, directory.resolve("wal"), WalConfig.defaults());
      storage.createDirectories(directory.resolve("t"));
      storage.syncDirectory(directory);
      region = open();
      write(0, 40, CellType.PUT);
      region.flush();
      write(20, 60, CellType.PUT);
      write(0, 10, CellType.DELETE_COLUMN);
      region.flush();
      write(60, 80, CellType.PUT);
      write(30, 35, CellType.DELETE_COLUMN);
      region.flush();
      region.compact(false);
      write(5, 8, CellType.PUT);
      region.flush();
      region.compact(true);
      region.close();
      region = null;
    }

    /** Stops everything without flushing, keeping the files and the log as they are. */
    void crash() throws IOException {
      if (region != null) {
        region.abort();
        region = null;
      }
      if (wal != null) {
        try {
          wal.close();
        } catch (IOException e) {
          // the log failed with the store; what it forced is on disk
        }
      }
      crashable.afterCrash();
    }

    /** Reopens and checks the table against the oracle, also after a flush and compactions. */
    void verify(String context) throws IOException {
      wal = WriteAheadLog.open(baseStorage(), directory.resolve("wal"), WalConfig.defaults());
      region = open();
      try {
        Map<String, String> expected = expected(contents());
        assertEquals(expected, contents(), context + ": after reopening");
        region.flush();
        region.compact(true);
        assertEquals(expected, contents(), context + ": after a flush and a major compaction");
      } finally {
        region.close();
        wal.close();
      }
      for (Path family : baseStorage().list(directory.resolve("t"))) {
        if (!baseStorage().isDirectory(family)) {
          continue;
        }
        assertEquals(
            List.of(),
            baseStorage().list(family.resolve(StoreFileWriter.TMP_DIRECTORY)),
            context + ": files left in .tmp");
      }
      chunkPool.close();
      assertEquals(0, allocator.stats().usedBufferCount(), context + ": pooled buffers held");
      allocator.close();
    }

    /**
     * The oracle, with the interrupted write's row as {@code found} shows it if that is either its
     * acknowledged state or the write: the log may have made the write durable before the crash
     * stopped the acknowledgment.
     */
    Map<String, String> expected(Map<String, String> found) {
      Map<String, String> expected = new TreeMap<>(oracle);
      if (uncertainRow != null && Objects.equals(found.get(uncertainRow), uncertainValue)) {
        if (uncertainValue == null) {
          expected.remove(uncertainRow);
        } else {
          expected.put(uncertainRow, uncertainValue);
        }
      }
      return expected;
    }

    /** Row to family a's value, checking family b agrees. */
    Map<String, String> contents() throws IOException {
      Map<String, String> found = new TreeMap<>();
      ScanRequest request =
          new ScanRequest(
              Bytes.EMPTY,
              Bytes.EMPTY,
              false,
              Map.of(),
              1,
              0,
              Long.MAX_VALUE,
              null,
              true,
              null,
              false);
      CollectedRow row = new CollectedRow();
      try (RegionScanner scanner = region.scanner(request)) {
        while (scanner.next(row)) {
          assertEquals(
              2,
              row.size(),
              "both families of " + Bytes.toString(row.get(0).rowArray()) + " in " + directory);
          String a = Bytes.toString(row.get(0).valueArray());
          assertEquals(a, Bytes.toString(row.get(1).valueArray()));
          found.put(Bytes.toString(row.get(0).rowArray()), a);
          row.clear();
        }
      } finally {
        row.clear();
      }
      return found;
    }
  }

  @Test
  void everyFailedFileOperationLosesNoAcknowledgedWriteAndBringsNoDeleteBack(TestSeed seed)
      throws Exception {
    crashAtEachOperation("failing", directory -> failing(), seed);
  }

  @Test
  void everyPowerLossLosesNoAcknowledgedWriteAndBringsNoDeleteBack(TestSeed seed) throws Exception {
    crashAtEachOperation(
        "losing power at",
        directory -> losingPower(root.resolve(directory.getFileName() + ".stash")),
        seed);
  }

  private interface StorageFactory {
    CrashableStorage create(Path directory) throws IOException;
  }

  private void crashAtEachOperation(String what, StorageFactory storages, TestSeed seed)
      throws Exception {
    Path cleanDirectory = runDirectory("clean");
    Run clean = new Run(cleanDirectory, storages.create(cleanDirectory));
    clean.scenario();
    int operations = clean.crashable.operations();
    clean.crash();
    clean.verify("without a crash");
    assertTrue(operations > 50, "the scenario made " + operations + " file operations");

    int stride = Boolean.getBoolean("cellar.crash.allPoints") ? 1 : stride();
    int first = (int) Math.floorMod(seed.value(), (long) stride);
    System.out.println(
        "CrashPointTest: "
            + operations
            + " file operations, "
            + what
            + " every "
            + stride
            + "th from "
            + first
            + " (-Dcellar.crash.allPoints=true crashes at every one)");
    for (int crashAt = first; crashAt < operations; crashAt += stride) {
      Path directory = runDirectory("crash-" + crashAt);
      Run run = new Run(directory, storages.create(directory));
      run.crashable.crashAt(crashAt);
      try {
        run.scenario();
      } catch (IOException e) {
        // the crash point
      }
      run.crash();
      run.verify(what + " file operation " + crashAt + " of " + operations);
    }
    if (baseStorage() == Storage.local()) {
      deleteTree(root);
    }
  }

  private static void deleteTree(Path path) throws IOException {
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path each : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(each);
      }
    }
  }
}
