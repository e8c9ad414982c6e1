package dev.cellar.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A {@link Storage} over the local file system that can simulate a power loss, as LevelDB's
 * fault-injection environment and Lucene's MockDirectoryWrapper do: it remembers everything not yet
 * made durable and, on {@link #powerLoss()}, takes it back.
 *
 * <p><b>The model.</b> A file's bytes are durable up to the length it had at its last force; a
 * power loss cuts it there. A directory entry (a file or directory created, a rename, a delete) is
 * durable once its directory is forced ({@link #syncDirectory}); a power loss undoes every entry
 * change not made durable, newest first: a created file or directory disappears with all under it,
 * a renamed file goes back to its old name (and a file it replaced comes back), a deleted file or
 * directory comes back (the wrapper keeps it aside, in a stash directory, until its delete is
 * durable). A rename counts as durable once its target's directory is forced. What is not created
 * through this wrapper (files present before it) keeps its bytes.
 *
 * <p><b>Cutting the power at a step.</b> Every operation (create, write, force, rename, delete,
 * list, create or force a directory) is counted by a {@link PowerSwitch}; {@link #cutAt} makes
 * operation {@code index} and everything after it fail with an {@link IOException}, as if the
 * machine stopped just before it, until {@link #powerLoss()} restores the durable state and turns
 * the power back on.
 *
 * <p>Thread-safe: every operation and the power loss hold one lock.
 */
public final class PowerLossStorage extends ReadForwardingStorage implements PowerCut {

  /** One entry change not yet durable, and how to take it back. */
  private record Pending(Path directory, Undo undo) {}

  @FunctionalInterface
  private interface Undo {
    void run() throws IOException;
  }

  /** A file created here: how many of its bytes are durable. */
  private static final class Tracked {
    long durableLength;
  }

  private final Path stash;
  private final Map<Path, Tracked> files = new HashMap<>();
  private final List<Pending> pending = new ArrayList<>();
  private final PowerSwitch power = new PowerSwitch();
  private int stashed;

  /** Keeps deleted and replaced files under {@code stash}, a directory outside the tested one. */
  public PowerLossStorage(Path stash) throws IOException {
    super(Storage.local());
    this.stash = Files.createDirectories(stash);
  }

  @Override
  public Storage storage() {
    return this;
  }

  /** Cuts the power just before operation {@code index} (see {@link #operations()}). */
  @Override
  public void cutAt(int index) {
    power.cutAt(index);
  }

  /** How many operations ran so far. */
  @Override
  public int operations() {
    return power.operations();
  }

  /** Whether the power was cut and not yet restored. */
  public boolean off() {
    return power.off();
  }

  private void step(String what, Path path) throws IOException {
    power.step(what, path.toString());
  }

  /**
   * Takes back everything not durable, newest first, cuts every file created here to its durable
   * length, and turns the power back on. Call it once nothing uses the files any more.
   */
  @Override
  public synchronized void powerLoss() throws IOException {
    for (int i = pending.size() - 1; i >= 0; i--) {
      pending.get(i).undo().run();
    }
    pending.clear();
    for (Map.Entry<Path, Tracked> file : files.entrySet()) {
      if (Files.isRegularFile(file.getKey(), LinkOption.NOFOLLOW_LINKS)) {
        try (FileChannel channel = FileChannel.open(file.getKey(), StandardOpenOption.WRITE)) {
          if (channel.size() > file.getValue().durableLength) {
            channel.truncate(file.getValue().durableLength);
          }
        }
      }
    }
    files.clear();
    deleteTree(stash);
    Files.createDirectories(stash);
    power.turnOn();
  }

  @Override
  public AppendOnlyFile create(Path path) throws IOException {
    synchronized (this) {
      step("creating", path);
      FileChannel channel =
          FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      Tracked tracked = new Tracked();
      files.put(path, tracked);
      pending.add(
          new Pending(
              path.getParent(),
              () -> {
                Files.deleteIfExists(path);
                files.remove(path);
              }));
      return AppendOnlyFile.over(path, new TrackedChannel(path, channel, tracked));
    }
  }

  @Override
  public synchronized void createDirectories(Path directory) throws IOException {
    step("creating directory", directory);
    Path firstMissing = null;
    for (Path each = directory.toAbsolutePath();
        each != null && !Files.exists(each);
        each = each.getParent()) {
      firstMissing = each;
    }
    delegate.createDirectories(directory);
    if (firstMissing != null) {
      Path created = firstMissing;
      pending.add(new Pending(created.getParent(), () -> deleteTree(created)));
    }
  }

  @Override
  public synchronized void rename(Path source, Path target) throws IOException {
    step("renaming to", target);
    Path replaced = null;
    if (Files.exists(target)) {
      replaced = stash.resolve("replaced-" + stashed++);
      Files.move(target, replaced);
    }
    Tracked replacedTracked = files.remove(target);
    Tracked moved = files.remove(source);
    delegate.rename(source, target);
    if (moved != null) {
      files.put(target, moved);
    }
    Path kept = replaced;
    pending.add(
        new Pending(
            target.getParent(),
            () -> {
              if (Files.exists(target) && Files.isDirectory(source.getParent())) {
                Files.move(target, source);
                Tracked back = files.remove(target);
                if (back != null) {
                  files.put(source, back);
                }
              }
              if (kept != null && Files.isDirectory(target.getParent())) {
                Files.move(kept, target);
                if (replacedTracked != null) {
                  files.put(target, replacedTracked);
                }
              }
            }));
  }

  @Override
  public synchronized boolean deleteIfExists(Path path) throws IOException {
    step("deleting", path);
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    Path kept = stash.resolve("deleted-" + stashed++);
    Files.move(path, kept);
    Tracked tracked = files.remove(path);
    pending.add(
        new Pending(
            path.getParent(),
            () -> {
              if (Files.isDirectory(path.getParent())) {
                Files.move(kept, path);
                if (tracked != null) {
                  files.put(path, tracked);
                }
              }
            }));
    return true;
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
    pending.removeIf(change -> change.directory().equals(directory));
  }

  /** Cuts the file and forces it, as the local storage does: the new length is durable. */
  @Override
  public synchronized void truncate(Path path, long length) throws IOException {
    step("truncating", path);
    delegate.truncate(path, length);
    Tracked tracked = files.get(path);
    if (tracked != null) {
      tracked.durableLength = Math.min(tracked.durableLength, length);
    }
  }

  private static void deleteTree(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path each : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(each);
      }
    }
  }

  /** A file's channel that counts each write and force and records the durable length. */
  private final class TrackedChannel extends FileChannel {
    private final Path path;
    private final FileChannel channel;
    private final Tracked tracked;

    TrackedChannel(Path path, FileChannel channel, Tracked tracked) {
      this.path = path;
      this.channel = channel;
      this.tracked = tracked;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return channel.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return channel.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      step("writing", path);
      return channel.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      step("writing", path);
      return channel.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
      return channel.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      channel.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return channel.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      step("truncating", path);
      channel.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      synchronized (PowerLossStorage.this) {
        step("forcing", path);
        channel.force(metaData);
        tracked.durableLength = channel.size();
      }
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target)
        throws IOException {
      return channel.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count)
        throws IOException {
      step("writing", path);
      return channel.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return channel.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      step("writing", path);
      return channel.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      throw new UnsupportedOperationException("mapping a tracked channel");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return channel.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return channel.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      channel.close();
    }
  }
}
