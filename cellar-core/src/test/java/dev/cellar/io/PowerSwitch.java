package dev.cellar.io;

import java.io.IOException;

/**
 * The power of a simulated machine, as the power-loss storages ({@link PowerLossStorage} on a local
 * disk, {@code HdfsPowerLossStorage} on HDFS) share it: each file operation passes through {@link
 * #step} and is counted; once the count reaches the index {@link #cutAt} names, that operation and
 * every later one fail, as if the machine stopped just before it, until {@link #turnOn()}. What a
 * power loss takes back is the storage's own model, not this class's.
 *
 * <p>Thread-safe.
 */
public final class PowerSwitch {

  private int operations;
  private int cutAt = -1;
  private boolean off;

  /** How many operations ran so far. */
  public synchronized int operations() {
    return operations;
  }

  /** Cuts the power just before operation {@code index} (see {@link #operations()}). */
  public synchronized void cutAt(int index) {
    cutAt = index;
  }

  /** Whether the power was cut and not yet turned back on. */
  public synchronized boolean off() {
    return off;
  }

  /**
   * Counts one operation, {@code what} on {@code where}.
   *
   * @throws IOException naming them, if the power is off (or goes off at this operation)
   */
  public synchronized void step(String what, String where) throws IOException {
    if (!off && operations++ == cutAt) {
      off = true;
    }
    if (off) {
      throw new IOException("power lost before " + what + " " + where);
    }
  }

  /** Turns the power back on, with no cut planned. */
  public synchronized void turnOn() {
    off = false;
    cutAt = -1;
  }
}
