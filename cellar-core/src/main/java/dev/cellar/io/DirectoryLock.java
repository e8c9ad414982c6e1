package dev.cellar.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive hold on a directory, so one process at a time writes it: a {@value #FILE_NAME} file
 * in the directory locked with {@link FileChannel#tryLock()} (an advisory lock the operating system
 * drops when the process dies, so a crash never leaves a stale lock) and, inside this JVM, an entry
 * in a table of held directories. The file holds one line naming the holder (process id, host, when
 * it took the lock), which a refused opener puts in its error.
 *
 * <p><b>Why the table.</b> The OS lock belongs to the process, not to the channel: a second {@code
 * tryLock} in the same JVM throws {@link OverlappingFileLockException}, and closing any channel of
 * the locked file may drop the process's lock on some systems. So a second hold in this JVM is
 * refused from the table without opening the file at all.
 *
 * <p>Thread-safe; {@link #close()} releases the hold and is idempotent.
 */
public final class DirectoryLock implements StorageLock {

  /** The lock file's name in the locked directory. */
  public static final String FILE_NAME = "LOCK";

  private static final Map<Path, String> HELD = new ConcurrentHashMap<>();

  private final Path directory;
  private final FileChannel channel;
  private final FileLock lock;
  private boolean closed;

  private DirectoryLock(Path directory, FileChannel channel, FileLock lock) {
    this.directory = directory;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the hold on {@code directory} (which must exist) at once, or fails.
   *
   * @throws DirectoryLockedException naming the directory and, where known, the holder, if another
   *     process or another open in this JVM holds it
   * @throws IOException naming the lock file, if it cannot be created or locked
   */
  public static DirectoryLock acquire(Path directory) throws IOException {
    Path key = directory.toRealPath();
    String holder = describeThisProcess();
    String previous = HELD.putIfAbsent(key, holder);
    if (previous != null) {
      throw new DirectoryLockedException(
          directory, "it is already open in this process (" + previous + ")");
    }
    Path file = key.resolve(FILE_NAME);
    FileChannel channel = null;
    try {
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel, file);
      if (lock == null) {
        String other = readHolder(channel);
        throw new DirectoryLockedException(
            directory,
            "another process holds " + file + (other.isEmpty() ? "" : " (" + other + ")"));
      }
      writeHolder(channel, holder);
      return new DirectoryLock(key, channel, lock);
    } catch (IOException | RuntimeException e) {
      HELD.remove(key);
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException closeFailure) {
          e.addSuppressed(closeFailure);
        }
      }
      throw e;
    }
  }

  /**
   * Whether another open holds {@code directory}, without taking the hold for longer than the
   * probe: the holder's line if it is held (by this process or another), empty if it is free or has
   * no lock file. For offline checks; the answer may be stale as soon as it is returned.
   *
   * @throws IOException naming the lock file, if it exists but cannot be opened or locked
   */
  public static Optional<String> probe(Path directory) throws IOException {
    Path file = directory.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    String here = HELD.get(directory.toRealPath());
    if (here != null) {
      return Optional.of("this process (" + here + ")");
    }
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock lock = tryLock(channel, file);
      if (lock == null) {
        String other = readHolder(channel);
        return Optional.of(other.isEmpty() ? "another process" : other);
      }
      lock.release();
      return Optional.empty();
    }
  }

  private static FileLock tryLock(FileChannel channel, Path file) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      throw new DirectoryLockedException(
          file.getParent(), "this process holds " + file + " through another channel");
    } catch (IOException e) {
      throw new IOException(file + ": cannot lock: " + e, e);
    }
  }

  private static String readHolder(FileChannel channel) {
    try {
      ByteBuffer buffer = ByteBuffer.allocate(512);
      int read = channel.read(buffer, 0);
      return read <= 0 ? "" : new String(buffer.array(), 0, read, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Replaces the file's content with {@code holder} and a line end. Not forced: the line only
   * informs a refused opener, and the lock itself is not in the file.
   */
  private static void writeHolder(FileChannel channel, String holder) throws IOException {
    channel.truncate(0);
    ByteBuffer bytes = ByteBuffer.wrap((holder + "\n").getBytes(StandardCharsets.UTF_8));
    long position = 0;
    while (bytes.hasRemaining()) {
      position += channel.write(bytes, position);
    }
  }

  private static String describeThisProcess() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      host = "this host";
    }
    return "pid " + ProcessHandle.current().pid() + " on " + host + " since " + Instant.now();
  }

  /** The locked directory. */
  @Override
  public Path directory() {
    return directory;
  }

  /** Releases the hold: the OS lock, the file's channel and this JVM's entry. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      lock.release();
    } finally {
      try {
        channel.close();
      } finally {
        HELD.remove(directory);
      }
    }
  }

  @Override
  public String toString() {
    return "DirectoryLock[" + directory + "]";
  }
}
