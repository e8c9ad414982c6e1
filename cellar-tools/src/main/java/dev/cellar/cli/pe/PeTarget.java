package dev.cellar.cli.pe;

import dev.cellar.Admin;
import dev.cellar.Table;
import java.io.IOException;

/**
 * The database a PE run works on: an embedded one ({@link PeDatabase}) or a server reached through
 * Cellar's client ({@link PeServer}, {@code --connect}). Besides the table, it gives what the
 * report shows about the engine where the engine is in this process: block cache counters and the
 * pooled allocator's heap ratio.
 */
interface PeTarget extends AutoCloseable {

  /** Where the data is, for the run's notes (a directory, or a server's address). */
  String describe();

  Admin admin();

  /** PE's table, created with {@code options}' families and attributes if it does not exist. */
  Table createTableIfMissing(PeOptions options) throws IOException;

  /** PE's table, which must exist and hold rows. @throws PeException saying to load it first */
  Table existingTable(PeOptions options) throws IOException;

  /** The block cache's counters now; empty when there is none in this process. */
  CacheFigures cacheFigures();

  /** The pooled allocator's heap ratio since the last call; NaN when it is not in this process. */
  double heapAllocationRatioSinceLastCall();

  /** The server's address, or null for an embedded database. */
  String server();

  @Override
  void close() throws IOException;
}
