package dev.cellar.io;

import java.io.IOException;

/**
 * A storage that can lose power, as the crash tests drive it: every file operation is counted,
 * {@link #cutAt} stops the machine just before one (that operation and every later one fail), and
 * {@link #powerLoss()} takes back what the storage's durability model says was not yet durable and
 * turns the power back on. {@link PowerLossStorage} models a local disk; {@code
 * HdfsPowerLossStorage} (module {@code cellar-hdfs}) models HDFS.
 */
public interface PowerCut {

  /** The storage the tested code writes through. */
  Storage storage();

  /** How many operations ran so far. */
  int operations();

  /** Cuts the power just before operation {@code index}. */
  void cutAt(int index);

  /** Takes back what was not durable and turns the power on; nothing may use the files now. */
  void powerLoss() throws IOException;
}
