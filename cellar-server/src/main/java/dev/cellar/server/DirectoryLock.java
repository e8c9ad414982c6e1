package dev.cellar.server;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a database directory for the life of a server: an OS file lock on {@code
 * <dir>/server/lock}, so a second server (in this or another process) on the same directory fails
 * at start instead of corrupting the first one's files. Released by {@link #close()} or when the
 * process ends.
 */
final class DirectoryLock implements AutoCloseable {

  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes the lock. @throws IOException naming the directory if another server holds it */
  static DirectoryLock acquire(Path directory, Path lockFile) throws IOException {
    FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new IOException("directory " + directory + " is in use by another Cellar server"
          + " (its lock " + lockFile + " is held)");
    }
    return new DirectoryLock(channel, lock);
  }

  @Override
  public void close() throws IOException {
    lock.release();
    channel.close();
  }
}
