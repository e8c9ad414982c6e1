package dev.cellar.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.TableDescriptor;
import dev.cellar.io.DirectoryLockedException;
import dev.cellar.io.StorageLocation;
import dev.cellar.io.StorageLock;
import dev.cellar.spi.EngineAccess;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One writer per directory on HDFS: the {@code LOCK} file's lease. Other holders are played by
 * Hadoop clients of their own (their own leases), naming in the file a process elsewhere or one
 * that is gone.
 */
class HdfsLockTest {

  @RegisterExtension static final MiniHdfs hdfs = MiniHdfs.withDataNodes(1);

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static FileSystem otherClient() throws IOException {
    return FileSystem.newInstance(
        hdfs.root(), HdfsSettings.hadoopConfiguration(EngineAccess.settings(hdfs.config())));
  }

  /** Holds {@code directory}'s lock file through {@code client}, naming {@code holder} in it. */
  private static FSDataOutputStream hold(FileSystem client, String directory, String holder)
      throws IOException {
    FSDataOutputStream out = client.create(new Path(directory + "/LOCK"), false);
    out.write(bytes(holder + "\n"));
    out.hflush();
    return out;
  }

  private static long deadPid() throws Exception {
    Process process = new ProcessBuilder("true").start();
    assertTrue(process.waitFor(10, TimeUnit.SECONDS));
    return process.pid();
  }

  @Test
  void aSecondOpenFailsAtOnceNamingTheDirectoryAndTheFirstKeepsWorking() throws Exception {
    String location = hdfs.newDirectory("second");
    try (Cellar first = Cellar.open(location, hdfs.config())) {
      first.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      DirectoryLockedException refused =
          assertThrows(DirectoryLockedException.class, () -> Cellar.open(location, hdfs.config()));
      assertTrue(refused.getMessage().startsWith(location + " is in use"), refused.getMessage());
      first.table("t").put(new Put(bytes("r")).addColumn(bytes("f"), bytes("q"), bytes("v")));
      try (Result result = first.table("t").get(new Get(bytes("r")))) {
        assertArrayEquals(bytes("v"), result.getValue(bytes("f"), bytes("q")));
      }
    }
    Cellar.open(location, hdfs.config()).close();
  }

  @Test
  void aLiveHolderElsewhereIsRefusedAtOnceAndAReleasedLockIsTakenOver() throws Exception {
    String location = hdfs.newDirectory("elsewhere");
    String holder = "pid 4242 on another-host since " + Instant.now();
    try (FileSystem other = otherClient()) {
      other.mkdirs(new Path(location));
      try (FSDataOutputStream held = hold(other, location, holder)) {
        long start = System.nanoTime();
        DirectoryLockedException refused =
            assertThrows(
                DirectoryLockedException.class, () -> Cellar.open(location, hdfs.config()));
        assertTrue(refused.getMessage().contains(holder), refused.getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "the refusal waited");
      }
      Cellar.open(location, hdfs.config()).close();
    }
  }

  @Test
  void aDeadHolderOnThisHostLosesItsLeaseAtOnceAndCannotWriteAfter() throws Exception {
    String location = hdfs.newDirectory("dead");
    String holder =
        "pid " + deadPid() + " on " + HdfsDirectoryLock.hostName() + " since " + Instant.now();
    try (FileSystem other = otherClient()) {
      other.mkdirs(new Path(location));
      FSDataOutputStream zombie = hold(other, location, holder);
      try (Cellar cellar = Cellar.open(location, hdfs.config())) {
        cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
        assertThrows(
            IOException.class,
            () -> {
              zombie.write(bytes("still here\n"));
              zombie.hflush();
            },
            "the old holder's stream is fenced");
      }
    }
  }

  @Test
  void aHoldWhoseLeaseWasRecoveredFailsItsCheck() throws Exception {
    String location = hdfs.newDirectory("check");
    try (StorageLocation resolved =
            StorageLocation.resolve(location, EngineAccess.settings(hdfs.config()));
        FileSystem other = otherClient()) {
      HadoopStorage storage = (HadoopStorage) resolved.storage();
      storage.createDirectories(resolved.directory());
      StorageLock lock = storage.lock(resolved.directory());
      try {
        lock.checkHeld();
        Path file = new Path(URI.create(location + "/LOCK"));
        DistributedFileSystem recovering = (DistributedFileSystem) other;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!recovering.recoverLease(file)) {
          assertTrue(System.nanoTime() < deadline, "the lease was not recovered");
          Thread.sleep(100);
        }
        IOException lost = assertThrows(IOException.class, lock::checkHeld);
        assertTrue(lost.getMessage().contains("no longer holds"), lost.getMessage());
      } finally {
        try {
          lock.close();
        } catch (IOException expected) {
          // its stream lost the lease
        }
      }
    }
  }
}
