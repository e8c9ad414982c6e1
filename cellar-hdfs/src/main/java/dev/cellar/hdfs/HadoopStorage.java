package dev.cellar.hdfs;

import dev.cellar.io.AppendOnlyFile;
import dev.cellar.io.ReadOnlyFile;
import dev.cellar.io.Storage;
import dev.cellar.io.StorageLock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Storage} on a Hadoop {@link FileSystem} (HDFS): the store's paths are absolute paths of
 * that file system, whose scheme and authority this storage adds.
 *
 * <p><b>Reads</b> go through {@link HadoopReadOnlyFile}: one stream per file, opened on a client
 * with HDFS checksum verification off (Cellar verifies every HFile block and log entry itself), and
 * a second stream with it on, opened only to read again after Cellar's checksums failed.
 *
 * <p><b>Writes.</b> Every file is created without overwrite and must offer {@code hflush} and
 * {@code hsync} ({@link HadoopAppendOnlyFile}) unless {@code
 * hbase.unsafe.stream.capability.enforce} is false. A rename replaces its target in one step
 * ({@link FileContext#rename} with {@code OVERWRITE}: a plain {@link FileSystem#rename} refuses an
 * existing target on HDFS). The NameNode logs every namespace change durably before it answers, so
 * {@link #syncDirectory} has nothing to do.
 *
 * <p><b>One writer</b> per directory by the lease of its {@code LOCK} file ({@link
 * HdfsDirectoryLock}); {@link #recoverWriter} recovers a dead writer's lease on its last log
 * segment before the log is read, which also settles the segment's length.
 *
 * <p><b>Fencing a writer that is not dead.</b> HBase renames a dead region server's log directory
 * so that a server which was only paused cannot start a new log file where the recovery reads.
 * Cellar instead makes the paused writer find out: every new log segment is created and then,
 * before any entry goes into it, the writer checks its hold on the log directory ({@link
 * StorageLock#checkHeld}), which fails once a new opener recovered the {@code LOCK} lease. A new
 * opener recovers that lease before it lists the segments, so a segment the old writer created
 * later is seen failing its check and holds no entry, and every segment listed has its lease
 * recovered, which fails the old writer's next hflush there. The directory keeps its name, which a
 * database's layout relies on, and no second directory needs cleaning up.
 *
 * <p>Thread-safe: Hadoop's {@link FileSystem} clients are.
 */
public final class HadoopStorage implements Storage, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HadoopStorage.class);

  private final URI root;
  private final FileSystem fs;
  private final FileSystem unverified;
  private final FileContext context;
  private final HdfsSettings settings;

  private HadoopStorage(
      URI root, FileSystem fs, FileSystem unverified, FileContext context, HdfsSettings settings) {
    this.root = root;
    this.fs = fs;
    this.unverified = unverified;
    this.context = context;
    this.settings = settings;
  }

  /**
   * Connects to the file system at {@code root} ({@code scheme://authority/}) with clients of its
   * own (not Hadoop's shared cache, so that closing this storage ends exactly its leases), and
   * checks that it answers.
   *
   * @throws IOException in one line naming {@code root}, if it cannot be reached
   */
  public static HadoopStorage connect(URI root, Configuration conf, HdfsSettings settings)
      throws IOException {
    FileSystem fs = null;
    FileSystem unverified = null;
    try {
      fs = FileSystem.newInstance(root, conf);
      fs.getFileStatus(new Path(root));
      unverified = FileSystem.newInstance(root, conf);
      unverified.setVerifyChecksum(!settings.verifyChecksums());
      return new HadoopStorage(
          root, fs, unverified, FileContext.getFileContext(root, conf), settings);
    } catch (IOException | RuntimeException e) {
      closeQuietly(fs, e);
      closeQuietly(unverified, e);
      throw new IOException("cannot reach the file system at " + root + ": " + firstLine(e), e);
    }
  }

  private static void closeQuietly(AutoCloseable closeable, Exception cause) {
    if (closeable != null) {
      try {
        closeable.close();
      } catch (Exception e) {
        cause.addSuppressed(e);
      }
    }
  }

  static String firstLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /** The Hadoop path of {@code path}. */
  Path hadoopPath(java.nio.file.Path path) {
    return new Path(root.getScheme(), root.getAuthority(), path.toString());
  }

  private java.nio.file.Path storePath(Path path) {
    return java.nio.file.Path.of(path.toUri().getPath());
  }

  FileSystem fileSystem() {
    return fs;
  }

  HdfsSettings settings() {
    return settings;
  }

  @Override
  public ReadOnlyFile openRead(java.nio.file.Path path) throws IOException {
    Path file = hadoopPath(path);
    FSDataInputStream in;
    try {
      in = unverified.open(file);
    } catch (FileNotFoundException e) {
      throw missing(file, e);
    }
    return new HadoopReadOnlyFile(path, file, in, fs, settings.preadIntoBuffers());
  }

  /**
   * Hadoop's "file does not exist" as one line naming the full URI (Hadoop's own names the bare
   * path), keeping the type callers test for.
   */
  private static FileNotFoundException missing(Path file, FileNotFoundException cause) {
    FileNotFoundException named = new FileNotFoundException(file + ": no such file");
    named.initCause(cause);
    return named;
  }

  @Override
  public AppendOnlyFile create(java.nio.file.Path path) throws IOException {
    Path file = hadoopPath(path);
    FSDataOutputStream out = fs.create(file, false);
    try {
      checkCapabilities(file, out);
    } catch (IOException e) {
      closeQuietly(out, e);
      fs.delete(file, false);
      throw e;
    }
    return new HadoopAppendOnlyFile(
        path, file, fs.getDefaultReplication(file), out, settings.hsyncLog());
  }

  /**
   * HBase's rule: a stream that cannot hflush and hsync could lose acknowledged writes. Hadoop
   * deprecates the HFLUSH name, and HBase still asks for it, as this does.
   */
  @SuppressWarnings("deprecation")
  void checkCapabilities(Path file, FSDataOutputStream out) throws IOException {
    if (!settings.enforceCapabilities()) {
      return;
    }
    for (String capability : new String[] {StreamCapabilities.HFLUSH, StreamCapabilities.HSYNC}) {
      if (!out.hasCapability(capability)) {
        throw new IOException(
            file
                + ": the file system's output stream cannot "
                + capability
                + ", so acknowledged writes could be lost; set "
                + HdfsSettings.ENFORCE_CAPABILITIES
                + "=false to accept that");
      }
    }
  }

  @Override
  public boolean isFile(java.nio.file.Path path) throws IOException {
    FileStatus status = status(path);
    return status != null && status.isFile();
  }

  @Override
  public boolean isDirectory(java.nio.file.Path path) throws IOException {
    FileStatus status = status(path);
    return status != null && status.isDirectory();
  }

  private FileStatus status(java.nio.file.Path path) throws IOException {
    try {
      return fs.getFileStatus(hadoopPath(path));
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  @Override
  public long size(java.nio.file.Path path) throws IOException {
    Path file = hadoopPath(path);
    try {
      return fs.getFileStatus(file).getLen();
    } catch (FileNotFoundException e) {
      throw missing(file, e);
    }
  }

  /**
   * Reads to the end of the stream rather than to the length the NameNode reports: for a file still
   * open for writing (a manifest its dead writer never closed) the NameNode counts only completed
   * blocks, while the stream reads every byte the DataNodes acknowledged to an hflush.
   */
  @Override
  public byte[] readAllBytes(java.nio.file.Path path) throws IOException {
    Path file = hadoopPath(path);
    try (FSDataInputStream in = fs.open(file)) {
      return in.readAllBytes();
    } catch (FileNotFoundException e) {
      throw missing(file, e);
    }
  }

  @Override
  public void createDirectories(java.nio.file.Path directory) throws IOException {
    Path dir = hadoopPath(directory);
    if (!fs.mkdirs(dir)) {
      throw new IOException(dir + ": cannot create the directory");
    }
  }

  @Override
  public void rename(java.nio.file.Path source, java.nio.file.Path target) throws IOException {
    context.rename(hadoopPath(source), hadoopPath(target), Options.Rename.OVERWRITE);
  }

  @Override
  public boolean deleteIfExists(java.nio.file.Path path) throws IOException {
    return fs.delete(hadoopPath(path), false);
  }

  /**
   * Cuts the file; when HDFS must first recover the last block (the cut falls inside it), waits
   * until the file is closed again, as long as lease recovery may take.
   */
  @Override
  public void truncate(java.nio.file.Path path, long length) throws IOException {
    Path file = hadoopPath(path);
    if (!fs.truncate(file, length)) {
      awaitClosed(file, "cutting it to " + length + " bytes");
    }
  }

  @Override
  public List<java.nio.file.Path> list(java.nio.file.Path directory) throws IOException {
    FileStatus[] statuses;
    try {
      statuses = fs.listStatus(hadoopPath(directory));
    } catch (FileNotFoundException e) {
      return List.of();
    }
    List<java.nio.file.Path> paths = new ArrayList<>(statuses.length);
    for (FileStatus status : statuses) {
      paths.add(storePath(status.getPath()));
    }
    paths.sort(null);
    return paths;
  }

  /** Nothing to do: the NameNode makes a namespace change durable before it answers. */
  @Override
  public void syncDirectory(java.nio.file.Path directory) {}

  @Override
  public StorageLock lock(java.nio.file.Path directory) throws IOException {
    return HdfsDirectoryLock.acquire(this, directory);
  }

  @Override
  public Optional<String> probeLock(java.nio.file.Path directory) throws IOException {
    return HdfsDirectoryLock.probe(this, directory);
  }

  /**
   * Recovers the lease of {@code path} if a writer still holds it, and waits until the file is
   * closed, which fixes its length at what the DataNodes hold: every hflushed byte.
   */
  @Override
  public void recoverWriter(java.nio.file.Path path) throws IOException {
    Path file = hadoopPath(path);
    LeaseRecoverable leases = leases();
    if (leases == null || leases.isFileClosed(file)) {
      return;
    }
    LOG.info("{}: recovering the lease of its last writer", file);
    if (!leases.recoverLease(file)) {
      awaitClosed(file, "recovering its writer's lease");
    }
  }

  /** Lease recovery, where the file system has leases (HDFS); null where it does not. */
  LeaseRecoverable leases() {
    return fs instanceof LeaseRecoverable recoverable ? recoverable : null;
  }

  /**
   * Waits until {@code file} is closed, asking for its lease's recovery again now and then, for at
   * most {@code hbase.lease.recovery.timeout}.
   *
   * @throws IOException naming the file and the setting, if it is not closed in time
   */
  void awaitClosed(Path file, String what) throws IOException {
    LeaseRecoverable leases = leases();
    if (leases == null) {
      return;
    }
    long deadline = System.nanoTime() + settings.leaseRecoveryTimeoutMillis() * 1_000_000;
    while (!leases.isFileClosed(file)) {
      if (System.nanoTime() - deadline > 0) {
        throw new IOException(
            file
                + ": "
                + what
                + " did not finish within "
                + settings.leaseRecoveryTimeoutMillis()
                + " ms ("
                + HdfsSettings.LEASE_RECOVERY_TIMEOUT
                + "); the file is not read while its length may still change");
      }
      try {
        Thread.sleep(settings.leaseRecoveryPauseMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(file + ": interrupted while " + what);
      }
      if (leases.recoverLease(file)) {
        return;
      }
    }
  }

  @Override
  public String describe(java.nio.file.Path path) {
    return hadoopPath(path).toString();
  }

  /** Closes the file-system clients; a lock still held loses its lease. */
  @Override
  public void close() throws IOException {
    try {
      unverified.close();
    } finally {
      fs.close();
    }
  }

  @Override
  public String toString() {
    return "HDFS storage at " + root;
  }
}
