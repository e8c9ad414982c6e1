package dev.cellar.cli.rocksdb;

import java.util.Locale;

/** What {@code cellar bench rocksdb} measures, chosen with {@code --workload}. */
enum Workload {

  /** Uniform random gets of the loaded rows, once per cache ratio. */
  GET,

  /** Scans of the loaded rows (each thread its share, or ranges), once per cache ratio. */
  SCAN,

  /** Batches of random new rows written with the log on and synced once per batch. */
  WRITE;

  /**
   * The workload named {@code name}, in any case.
   *
   * @throws IllegalArgumentException naming the option and the choices
   */
  static Workload parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--workload takes get, scan and write, was " + name);
    }
  }
}
