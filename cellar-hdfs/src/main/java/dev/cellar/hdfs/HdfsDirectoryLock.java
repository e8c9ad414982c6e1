package dev.cellar.hdfs;

import dev.cellar.io.DirectoryLockedException;
import dev.cellar.io.StorageLock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One writer per directory on HDFS, where there is no {@code tryLock}: the holder keeps the
 * directory's {@code LOCK} file open for writing, and so holds the file's HDFS lease, which its
 * client renews while the process lives. The file names the holder (process, host, since when) in
 * its one line; the file itself stays when the hold ends.
 *
 * <p><b>Taking the hold.</b> The file is created without overwrite; if it exists, the hold is taken
 * over by emptying the file (a truncate to 0) and appending to it in a new block. The NameNode
 * grants both only when nobody holds the lease: the file is closed (its holder released it, or died
 * and its lease was recovered), or the holder's lease expired (the NameNode then recovers it first,
 * and the take-over is retried until {@code hbase.lease.recovery.timeout}). A live holder renews
 * its lease, so an open that meets one fails at once with a {@link DirectoryLockedException} naming
 * the directory and the holder; two openers that both emptied a released file race for the append,
 * which one wins. A holder that died on this host (its process is gone) does not make the next open
 * wait for the lease to expire: the open recovers the lease at once.
 *
 * <p><b>Why empty, and why a new block.</b> An append to the last block reopens that block's
 * DataNode pipeline, and HDFS's {@code DEFAULT} {@code
 * dfs.client.block.write.replace-datanode-on-failure.policy} then wants as many DataNodes in it as
 * the file's replication ({@code dfs.replication}, 3 by default), when that is 3 or more, before it
 * writes a byte: on a cluster with fewer DataNodes there is none to add, and the take-over failed
 * with "Failed to replace a bad datanode on the existing pipeline" although the first open had
 * worked. A new block is placed by the NameNode on the DataNodes there are, as the first block of a
 * new file is (the log's segments are new files, as HBase's log files are, never appended to).
 * Emptying the file first keeps it at one block however often it is taken over, where a block per
 * open would meet the NameNode's {@code dfs.namenode.fs-limits.max-blocks-per-file}; the append
 * asks for a new block all the same, so that no block is reopened whatever the file held (a
 * truncate leaves a file that is already empty as it is). The lock's bytes need no more replicas
 * than they get: the hold is the lease, which lives in the NameNode, and the line only names the
 * holder. A DataNode lost later from the holder's pipeline is replaced under the client's policy,
 * as in every file ({@link DataNodeReplacement}). The other ways were worse: a client of its own
 * for the lock with the policy {@code NEVER} would let the holder's pipeline shrink to nothing as
 * DataNodes of a large cluster stop one after another, and one with {@code best-effort} would log a
 * warning with a stack trace at every open of a small one; a replication below {@code
 * dfs.replication} would leave the lock on fewer DataNodes than a large cluster has.
 *
 * <p><b>In this JVM</b> a table of held directories refuses a second hold before any RPC, as the
 * local lock does.
 *
 * <p>Thread-safe; {@link #close()} releases the hold and is idempotent.
 */
final class HdfsDirectoryLock implements StorageLock {

  private static final Logger LOG = LoggerFactory.getLogger(HdfsDirectoryLock.class);

  static final String FILE_NAME = "LOCK";

  private static final Map<String, String> HELD = new ConcurrentHashMap<>();
  private static final Pattern HOLDER = Pattern.compile("pid (\\d+) on (\\S+) ");

  private final java.nio.file.Path directory;
  private final String key;
  private final Path file;
  private final short replication;
  private final FSDataOutputStream out;
  private boolean closed;

  private HdfsDirectoryLock(
      java.nio.file.Path directory,
      String key,
      Path file,
      short replication,
      FSDataOutputStream out) {
    this.directory = directory;
    this.key = key;
    this.file = file;
    this.replication = replication;
    this.out = out;
  }

  static HdfsDirectoryLock acquire(HadoopStorage storage, java.nio.file.Path directory)
      throws IOException {
    Path file = storage.hadoopPath(directory.resolve(FILE_NAME));
    String key = file.toString();
    String holder = describeThisProcess();
    String previous = HELD.putIfAbsent(key, holder);
    if (previous != null) {
      throw new DirectoryLockedException(
          directory,
          file.getParent().toString(),
          "it is already open in this process (" + previous + ")");
    }
    try {
      FSDataOutputStream out = open(storage, directory, file);
      short replication = storage.fileSystem().getDefaultReplication(file);
      try {
        out.write((holder + "\n").getBytes(StandardCharsets.UTF_8));
        out.hflush();
      } catch (IOException e) {
        try {
          out.close();
        } catch (IOException closing) {
          if (closing != e) {
            e.addSuppressed(closing);
          }
        }
        if (DataNodeReplacement.refused(e)) {
          throw DataNodeReplacement.explain(file, replication, e);
        }
        throw new IOException(file + ": cannot write the holder: " + e.getMessage(), e);
      }
      return new HdfsDirectoryLock(directory, key, file, replication, out);
    } catch (IOException | RuntimeException e) {
      HELD.remove(key);
      throw e;
    }
  }

  /** Creates the file, or takes it over; see the class comment. */
  private static FSDataOutputStream open(
      HadoopStorage storage, java.nio.file.Path directory, Path file) throws IOException {
    FileSystem fs = storage.fileSystem();
    try {
      return fs.create(file, false);
    } catch (FileAlreadyExistsException e) {
      // taken over below
    } catch (RemoteException e) {
      if (!e.getClassName().endsWith("FileAlreadyExistsException")
          && !e.getClassName().endsWith("AlreadyBeingCreatedException")) {
        throw e;
      }
    }
    String holder = readHolder(fs, file);
    LeaseRecoverable leases = storage.leases();
    if (leases != null && !leases.isFileClosed(file) && diedOnThisHost(holder)) {
      LOG.info("{}: its holder ({}) is no longer running; recovering its lease", file, holder);
      if (!leases.recoverLease(file)) {
        storage.awaitClosed(file, "recovering the lease of a dead holder");
      }
    }
    long deadline = System.nanoTime() + storage.settings().leaseRecoveryTimeoutMillis() * 1_000_000;
    while (true) {
      try {
        return takeOver(storage, file);
      } catch (RemoteException e) {
        String type = e.getClassName();
        boolean recovering = type.endsWith("RecoveryInProgressException");
        if (!recovering && !type.endsWith("AlreadyBeingCreatedException")) {
          throw e;
        }
        if (!recovering || System.nanoTime() - deadline > 0) {
          throw new DirectoryLockedException(
              directory,
              file.getParent().toString(),
              "the HDFS lease of "
                  + file
                  + " is held"
                  + (holder.isEmpty() ? "" : " by " + holder)
                  + (recovering
                      ? ", and its recovery did not finish within "
                          + storage.settings().leaseRecoveryTimeoutMillis()
                          + " ms"
                      : "; if that process is dead, its lease expires within a minute and the next"
                          + " open recovers it"));
        }
      }
      try {
        Thread.sleep(storage.settings().leaseRecoveryPauseMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(file + ": interrupted while taking over the lock");
      }
    }
  }

  /**
   * Empties {@code file} and opens it for appending to a new block (see the class comment). A
   * truncate to 0 ends on a block boundary and needs no block recovery, so the file is closed again
   * when it returns; {@link HadoopStorage#awaitClosed} covers a file system that says otherwise.
   */
  private static FSDataOutputStream takeOver(HadoopStorage storage, Path file) throws IOException {
    FileSystem fs = storage.fileSystem();
    if (!fs.truncate(file, 0)) {
      storage.awaitClosed(file, "emptying it");
    }
    return fs.append(file, true);
  }

  /**
   * Who holds {@code directory}, without taking the hold: the holder's line if the lock file is
   * open for writing, empty if it is closed or missing.
   */
  static Optional<String> probe(HadoopStorage storage, java.nio.file.Path directory)
      throws IOException {
    Path file = storage.hadoopPath(directory.resolve(FILE_NAME));
    String here = HELD.get(file.toString());
    if (here != null) {
      return Optional.of("this process (" + here + ")");
    }
    LeaseRecoverable leases = storage.leases();
    try {
      if (leases == null || leases.isFileClosed(file)) {
        return Optional.empty();
      }
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
    String holder = readHolder(storage.fileSystem(), file);
    return Optional.of(holder.isEmpty() ? "another process" : holder);
  }

  /** The last line of the lock file (as far as it was flushed), or empty. */
  private static String readHolder(FileSystem fs, Path file) {
    try (FSDataInputStream in = fs.open(file)) {
      byte[] bytes = in.readAllBytes();
      String text = new String(bytes, StandardCharsets.UTF_8).strip();
      int newline = text.lastIndexOf('\n');
      return newline < 0 ? text : text.substring(newline + 1);
    } catch (IOException e) {
      return "";
    }
  }

  /** Whether {@code holder} names a process on this host that is no longer running. */
  static boolean diedOnThisHost(String holder) {
    Matcher matcher = HOLDER.matcher(holder);
    if (!matcher.find() || !matcher.group(2).equals(hostName())) {
      return false;
    }
    long pid = Long.parseLong(matcher.group(1));
    return pid != ProcessHandle.current().pid()
        && ProcessHandle.of(pid).map(process -> !process.isAlive()).orElse(true);
  }

  private static String describeThisProcess() {
    return "pid " + ProcessHandle.current().pid() + " on " + hostName() + " since " + Instant.now();
  }

  static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }

  @Override
  public java.nio.file.Path directory() {
    return directory;
  }

  /**
   * Flushes one more byte of the lock file through the DataNode pipeline: once another opener
   * recovered the file's lease, the NameNode refuses this client the block, and this fails.
   */
  @Override
  public synchronized void checkHeld() throws IOException {
    if (closed) {
      throw new IOException(file + ": the hold was released");
    }
    try {
      out.write('\n');
      out.hflush();
    } catch (IOException e) {
      if (DataNodeReplacement.refused(e)) {
        throw DataNodeReplacement.explain(file, replication, e);
      }
      throw new IOException(
          file
              + ": this process no longer holds "
              + directory
              + " (another open recovered its lease): "
              + HadoopStorage.firstLine(e),
          e);
    }
  }

  /** Closes the file, which releases its lease; the file stays for the next holder. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } finally {
      HELD.remove(key);
    }
  }

  @Override
  public String toString() {
    return "HdfsDirectoryLock[" + file + "]";
  }
}
