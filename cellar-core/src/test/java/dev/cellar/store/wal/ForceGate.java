package dev.cellar.store.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A log whose forces wait while a gate is shut: lets a test hold a sync in flight for as long as it
 * likes and see what other threads do meanwhile. The gate starts open (opening a log forces a
 * segment header); {@link #shut()} makes later forces wait, {@link #open()} releases them.
 */
public final class ForceGate {

  private boolean shut;
  private int waiting;

  /** Opens a log in {@code directory} whose segment forces pass through this gate. */
  public WriteAheadLog openLog(Path directory) throws IOException {
    return WriteAheadLog.open(directory, WalConfig.defaults(), this::output);
  }

  /** Makes later forces wait. */
  public synchronized void shut() {
    shut = true;
  }

  /** Lets every waiting and later force through. */
  public synchronized void open() {
    shut = false;
    notifyAll();
  }

  /**
   * Waits up to {@code timeoutMillis} until {@code count} forces wait at the gate.
   *
   * @return whether they did
   */
  public synchronized boolean awaitWaiting(int count, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (waiting < count) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }

  private synchronized void pass() throws IOException {
    waiting++;
    notifyAll();
    try {
      while (shut) {
        wait();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted at the force gate", e);
    } finally {
      waiting--;
    }
  }

  private SegmentOutput output(Path path) throws IOException {
    SegmentOutput file = AppendOnlyFileOutput.on(dev.cellar.io.Storage.local()).create(path);
    return new SegmentOutput() {
      @Override
      public void append(ByteBuffer[] buffers) throws IOException {
        file.append(buffers);
      }

      @Override
      public void syncData() throws IOException {
        pass();
        file.syncData();
      }

      @Override
      public void close() throws IOException {
        file.close();
      }
    };
  }
}
