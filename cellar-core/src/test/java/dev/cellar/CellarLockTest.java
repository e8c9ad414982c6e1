package dev.cellar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.io.DirectoryLockedException;
import dev.cellar.store.wal.WalConfig;
import dev.cellar.store.wal.WriteAheadLog;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One process per database directory: a second open, in this JVM or in another process, fails at
 * once with an error naming the directory and the holder, and the first open keeps working. A
 * failed open releases everything it built.
 */
class CellarLockTest {

  private static final byte[] FAMILY = bytes("f");
  private static final byte[] QUALIFIER = bytes("q");

  @TempDir Path directory;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static CellarConfig config() {
    return CellarConfig.defaults().with("hfile.block.cache.memory.size", "4m");
  }

  @Test
  void aSecondOpenInThisProcessFailsAndTheFirstKeepsWorking() throws IOException {
    try (Cellar first = Cellar.open(directory, config())) {
      first.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      DirectoryLockedException refused =
          assertThrows(DirectoryLockedException.class, () -> Cellar.open(directory, config()));
      assertTrue(refused.getMessage().contains(directory.toString()), refused.getMessage());
      assertTrue(
          refused.getMessage().contains("pid " + ProcessHandle.current().pid()),
          refused.getMessage());

      Table table = first.table("t");
      table.put(new Put(bytes("r")).addColumn(FAMILY, QUALIFIER, bytes("v")));
      first.admin().flush("t");
      try (Result result = table.get(new Get(bytes("r")))) {
        assertArrayEquals(bytes("v"), result.getValue(FAMILY, QUALIFIER));
      }
    }
    try (Cellar reopened = Cellar.open(directory, config());
        Result result = reopened.table("t").get(new Get(bytes("r")))) {
      assertArrayEquals(
          bytes("v"),
          result.getValue(FAMILY, QUALIFIER),
          "closing releases the directory, and the refused open changed nothing");
    }
  }

  @Test
  void aSecondOpenWhileAnotherProcessWritesFailsNamingThatProcess() throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                CellarWriterProcess.class.getName(),
                directory.toString(),
                "0"));
    Process writer = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> output = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null && !line.startsWith("acked ")) {
        output.add(line);
      }
      assertTrue(line != null, "the writer did not start: " + output);
      DirectoryLockedException refused =
          assertThrows(
              DirectoryLockedException.class,
              () -> Cellar.open(directory, CellarCrashTest.config()));
      assertTrue(refused.getMessage().contains(directory.toString()), refused.getMessage());
      assertTrue(refused.getMessage().contains("pid " + writer.pid()), refused.getMessage());
      assertTrue(writer.isAlive(), "the refused open left the writer running");
      for (int acks = 0; acks < 20 && (line = reader.readLine()) != null; acks++) {
        assertTrue(line.startsWith("acked "), "the writer kept writing: " + line);
      }
    } finally {
      writer.destroyForcibly();
      assertTrue(writer.waitFor(30, TimeUnit.SECONDS), "the writer did not die");
    }
    try (Cellar cellar = Cellar.open(directory, CellarCrashTest.config());
        Result result = cellar.table("crash").get(new Get(CellarCrashTest.row(0)))) {
      assertEquals(2, result.size(), "the lock of a killed process does not outlive it");
    }
  }

  @Test
  void aSecondOpenOfALogFails() throws IOException {
    Path log = directory.resolve("wal");
    try (WriteAheadLog first = WriteAheadLog.open(log, WalConfig.defaults())) {
      assertThrows(
          DirectoryLockedException.class, () -> WriteAheadLog.open(log, WalConfig.defaults()));
      first.append(
          "t",
          List.of(KeyValue.create(bytes("r"), FAMILY, QUALIFIER, 1, CellType.PUT, bytes("v"))));
    }
    WriteAheadLog.open(log, WalConfig.defaults()).close();
  }

  @Test
  void aFailedOpenReleasesTheCacheThreadsAndTheDirectory() throws Exception {
    CellarConfig withL2 =
        config().with("hbase.bucketcache.ioengine", "offheap").with("hbase.bucketcache.size", "32");
    try (Cellar cellar = Cellar.open(directory, withL2)) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    }
    Path descriptor = directory.resolve("tables").resolve("t").resolve(TableDirectory.DESCRIPTOR);
    byte[] good = Files.readAllBytes(descriptor);
    Files.writeString(descriptor, "name=t\n");
    Set<Thread> before = cellarThreads();
    assertThrows(IOException.class, () -> Cellar.open(directory, withL2));
    assertTrue(noThreadsBesides(before), "threads left: " + cellarThreads());

    Files.write(descriptor, good);
    try (Cellar cellar = Cellar.open(directory, withL2)) {
      assertEquals(List.of("t"), cellar.admin().listTables(), "the directory was released");
    }
  }

  @Test
  void anOpenWhoseLogCannotBeOpenedReleasesTheCacheAndItsThreads() throws Exception {
    CellarConfig withL2 =
        config().with("hbase.bucketcache.ioengine", "offheap").with("hbase.bucketcache.size", "32");
    Files.writeString(directory.resolve("wal"), "a file where the log's directory belongs");
    Set<Thread> before = cellarThreads();
    IOException failure = assertThrows(IOException.class, () -> Cellar.open(directory, withL2));
    assertTrue(failure.getMessage().contains("wal"), failure.getMessage());
    assertTrue(noThreadsBesides(before), "threads left: " + cellarThreads());

    Files.delete(directory.resolve("wal"));
    Cellar.open(directory, withL2).close();
  }

  /** Waits up to 5 s for every Cellar thread started since {@code before} to end. */
  private static boolean noThreadsBesides(Set<Thread> before) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    for (; ; ) {
      Set<Thread> started = cellarThreads();
      started.removeAll(before);
      if (started.isEmpty()) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
  }

  private static Set<Thread> cellarThreads() {
    Set<Thread> threads = new HashSet<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      String name = thread.getName();
      if (name.startsWith("cellar-bucket")
          || name.equals(Cellar.FLUSHER_THREAD)
          || name.equals(Cellar.COMPACTION_THREAD)
          || name.startsWith("cellar-wal")) {
        threads.add(thread);
      }
    }
    return threads;
  }
}
