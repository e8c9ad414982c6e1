package dev.cellar.io;

import dev.cellar.hdfs.MiniHdfs;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * A {@link Storage} over HDFS that can simulate a power loss of the whole cluster (NameNode and
 * every DataNode at once), the HDFS counterpart of {@link PowerLossStorage}.
 *
 * <p><b>The model, and why it is HDFS's.</b>
 *
 * <ul>
 *   <li><i>Namespace changes are durable when they return.</i> The NameNode writes every create,
 *       rename, delete and mkdir to its edit log and syncs it before it answers the client ({@code
 *       FSEditLog.logSync}), so a power loss takes none of them back: forcing a directory is
 *       nothing here, and nothing is undone at a power loss.
 *   <li><i>A file's bytes are durable up to its last {@code hsync}.</i> {@code hsync} returns once
 *       every DataNode of the pipeline has written the packet to disk and forced it. {@code hflush}
 *       only puts the bytes in the DataNodes' memory (visible to readers, safe against the writer's
 *       process dying, not against the DataNodes losing power); closing a file finalizes its last
 *       block without forcing it ({@code dfs.datanode.synconclose} is false by default). So at a
 *       power loss every file written through this storage is cut to the length it had at its last
 *       {@code hsync} ({@link AppendOnlyFile#sync()}, and {@link AppendOnlyFile#syncData()} only
 *       when {@code hbase.wal.hsync} makes that an {@code hsync}).
 *   <li><i>A truncate is durable</i> (a namespace change, then block recovery on the DataNodes).
 * </ul>
 *
 * Files not created through this wrapper keep their bytes.
 *
 * <p><b>Cutting the power at a step.</b> As {@link PowerLossStorage}, with the same {@link
 * PowerSwitch}: every operation (create, write, force, rename, delete, list, create or force a
 * directory, truncate) is counted, and from the one {@link #cutAt} names onwards each fails with an
 * {@link IOException} until {@link #powerLoss()}, which closes the streams still open (as lease
 * recovery would), rewrites each tracked file longer than its durable length with only its durable
 * bytes (through {@code fs}, a client of its own), and turns the power back on.
 *
 * <p>Thread-safe: every operation and the power loss hold one lock.
 */
public final class HdfsPowerLossStorage extends ReadForwardingStorage implements PowerCut {

  private static final long RECOVERY_WAIT_MILLIS = 60_000;

  /** A file created here: how many of its bytes are durable. */
  private static final class Tracked {
    long durableLength;
  }

  private final DistributedFileSystem fs;
  private final URI root;
  private final boolean syncDataHsyncs;
  private final Map<Path, Tracked> files = new HashMap<>();
  private final Set<AppendOnlyFile> openFiles = new LinkedHashSet<>();
  private final PowerSwitch power = new PowerSwitch();

  /**
   * Wraps {@code delegate}, a storage on {@code hdfs}'s cluster; {@code syncDataHsyncs} says
   * whether the delegate's {@code syncData} is an {@code hsync} ({@code hbase.wal.hsync=true})
   * rather than an {@code hflush}.
   */
  public HdfsPowerLossStorage(MiniHdfs hdfs, Storage delegate, boolean syncDataHsyncs)
      throws IOException {
    super(delegate);
    this.fs = hdfs.cluster().getFileSystem();
    this.root = hdfs.root();
    this.syncDataHsyncs = syncDataHsyncs;
  }

  @Override
  public Storage storage() {
    return this;
  }

  @Override
  public int operations() {
    return power.operations();
  }

  @Override
  public void cutAt(int index) {
    power.cutAt(index);
  }

  private void step(String what, Path path) throws IOException {
    power.step(what, describe(path));
  }

  private org.apache.hadoop.fs.Path hadoopPath(Path path) {
    return new org.apache.hadoop.fs.Path(root.getScheme(), root.getAuthority(), path.toString());
  }

  @Override
  public synchronized void powerLoss() throws IOException {
    for (AppendOnlyFile file : new ArrayList<>(openFiles)) {
      try {
        file.close();
      } catch (IOException failedPipeline) {
        // the writer is gone; what its DataNodes hold is settled below
      }
    }
    openFiles.clear();
    for (Map.Entry<Path, Tracked> file : files.entrySet()) {
      cutToDurable(hadoopPath(file.getKey()), file.getValue().durableLength);
    }
    files.clear();
    power.turnOn();
  }

  /** Leaves {@code path} (if it exists) with only its first {@code durable} bytes. */
  private void cutToDurable(org.apache.hadoop.fs.Path path, long durable) throws IOException {
    if (!fs.exists(path)) {
      return;
    }
    recoverLease(path);
    if (fs.getFileStatus(path).getLen() <= durable) {
      return;
    }
    byte[] kept = new byte[Math.toIntExact(durable)];
    try (FSDataInputStream in = fs.open(path)) {
      in.readFully(0, kept);
    }
    try (FSDataOutputStream out = fs.create(path, true)) {
      out.write(kept);
      out.hsync();
    }
  }

  /** Waits until no writer holds {@code path} (a stream whose close failed may still). */
  private void recoverLease(org.apache.hadoop.fs.Path path) throws IOException {
    long deadline = System.currentTimeMillis() + RECOVERY_WAIT_MILLIS;
    while (!fs.isFileClosed(path)) {
      fs.recoverLease(path);
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(path + ": lease not recovered in " + RECOVERY_WAIT_MILLIS + " ms");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("waiting for the lease of " + path);
      }
    }
  }

  @Override
  public synchronized AppendOnlyFile create(Path path) throws IOException {
    step("creating", path);
    Tracked tracked = new Tracked();
    TrackedFile file = new TrackedFile(delegate.create(path), tracked);
    files.put(path, tracked);
    openFiles.add(file);
    return file;
  }

  @Override
  public synchronized void createDirectories(Path directory) throws IOException {
    step("creating directory", directory);
    delegate.createDirectories(directory);
  }

  @Override
  public synchronized void rename(Path source, Path target) throws IOException {
    step("renaming to", target);
    delegate.rename(source, target);
    files.remove(target);
    Tracked moved = files.remove(source);
    if (moved != null) {
      files.put(target, moved);
    }
  }

  @Override
  public synchronized boolean deleteIfExists(Path path) throws IOException {
    step("deleting", path);
    files.keySet().removeIf(file -> file.startsWith(path));
    return delegate.deleteIfExists(path);
  }

  @Override
  public synchronized List<Path> list(Path directory) throws IOException {
    step("listing", directory);
    return delegate.list(directory);
  }

  @Override
  public synchronized void syncDirectory(Path directory) throws IOException {
    step("forcing directory", directory);
    delegate.syncDirectory(directory);
  }

  @Override
  public synchronized void truncate(Path path, long length) throws IOException {
    step("truncating", path);
    delegate.truncate(path, length);
    Tracked tracked = files.get(path);
    if (tracked != null) {
      tracked.durableLength = Math.min(tracked.durableLength, length);
    }
  }

  @Override
  public void recoverWriter(Path path) throws IOException {
    delegate.recoverWriter(path);
  }

  @Override
  public ReadOnlyFile openReadImmutable(Path path) throws IOException {
    return delegate.openReadImmutable(path);
  }

  @Override
  public String describe(Path path) {
    return delegate.describe(path);
  }

  /** A file whose writes and forces are counted and whose {@code hsync}s set its durable length. */
  private final class TrackedFile extends AppendOnlyFile {
    private final AppendOnlyFile file;
    private final Tracked tracked;

    TrackedFile(AppendOnlyFile file, Tracked tracked) {
      super(file.path());
      this.file = file;
      this.tracked = tracked;
    }

    @Override
    public void append(ByteBuffer[] buffers) throws IOException {
      step("writing", path());
      long before = file.position();
      file.append(buffers);
      advance(file.position() - before);
    }

    @Override
    protected void write(ByteBuffer buffer) throws IOException {
      step("writing", path());
      long before = file.position();
      file.append(new ByteBuffer[] {buffer});
      advance(file.position() - before);
    }

    @Override
    public void sync() throws IOException {
      synchronized (HdfsPowerLossStorage.this) {
        step("forcing", path());
        file.sync();
        tracked.durableLength = file.position();
      }
    }

    @Override
    public void syncData() throws IOException {
      synchronized (HdfsPowerLossStorage.this) {
        step("forcing", path());
        file.syncData();
        if (syncDataHsyncs) {
          tracked.durableLength = file.position();
        }
      }
    }

    @Override
    public void close() throws IOException {
      synchronized (HdfsPowerLossStorage.this) {
        openFiles.remove(this);
      }
      file.close();
    }
  }
}
