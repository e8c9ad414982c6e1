package dev.cellar.cli;

import java.io.PrintStream;
import java.time.Duration;

/**
 * A line a tool prints when something it waits for takes longer than a moment, so that no wait is
 * silent: {@link #after} starts the clock, {@link #close} stops it, and the line is printed only if
 * the wait outlasted the delay. Thread-safe.
 */
final class WaitNotice implements AutoCloseable {

  private final Thread timer;
  private boolean closed;

  private WaitNotice(Duration delay, PrintStream err, String line) {
    timer =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    Thread.sleep(delay);
                  } catch (InterruptedException e) {
                    return;
                  }
                  synchronized (this) {
                    if (!closed) {
                      err.println(line);
                    }
                  }
                });
  }

  /** Prints {@code line} on {@code err} once {@code delay} has passed, unless closed before. */
  static WaitNotice after(Duration delay, PrintStream err, String line) {
    return new WaitNotice(delay, err, line);
  }

  @Override
  public synchronized void close() {
    closed = true;
    timer.interrupt();
  }
}
