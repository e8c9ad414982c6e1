package dev.cellar;

import java.io.IOException;

/**
 * A database to read and write, wherever it runs: an embedded {@link Cellar} opened on a directory
 * ({@link Cellar#open}), or a client of {@code cellar serve} ({@link Cellar#connect}). Code written
 * against this interface, {@link Table} and {@link Admin} moves from one to the other by changing
 * the line that opens the database. Implementations are thread-safe.
 */
public interface Database extends AutoCloseable {

  /** The administrative operations: tables, flushes and compactions. */
  Admin admin();

  /** The table named {@code name}. @throws TableNotFoundException if there is none */
  Table table(String name);

  /** Releases what the database holds (files and threads, or connections). */
  @Override
  void close() throws IOException;
}
