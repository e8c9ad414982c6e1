package dev.cellar.store.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Segment outputs over real files that fail on command: after a number of further successful
 * forces, writes or segment creations, the next one throws an {@link IOException}.
 */
final class FaultyOutputs implements SegmentOutput.Factory {

  private final AtomicInteger forcesLeft = new AtomicInteger(Integer.MAX_VALUE);
  private final AtomicInteger writesLeft = new AtomicInteger(Integer.MAX_VALUE);
  private final AtomicInteger createsLeft = new AtomicInteger(Integer.MAX_VALUE);

  /** Lets {@code count} more forces succeed, then fails the next one. */
  void failForceAfter(int count) {
    forcesLeft.set(count);
  }

  /** Lets {@code count} more writes succeed, then fails the next one. */
  void failWriteAfter(int count) {
    writesLeft.set(count);
  }

  /** Lets {@code count} more segments be created, then fails the next creation. */
  void failCreateAfter(int count) {
    createsLeft.set(count);
  }

  private static void maybeFail(AtomicInteger left, String what) throws IOException {
    if (left.getAndDecrement() == 0) {
      throw new IOException("injected " + what + " failure");
    }
  }

  @Override
  public SegmentOutput create(Path path) throws IOException {
    maybeFail(createsLeft, "create");
    SegmentOutput file = AppendOnlyFileOutput.on(dev.cellar.io.Storage.local()).create(path);
    return new SegmentOutput() {
      @Override
      public void append(ByteBuffer[] buffers) throws IOException {
        maybeFail(writesLeft, "write");
        file.append(buffers);
      }

      @Override
      public void syncData() throws IOException {
        maybeFail(forcesLeft, "fsync");
        file.syncData();
      }

      @Override
      public void close() throws IOException {
        file.close();
      }
    };
  }
}
