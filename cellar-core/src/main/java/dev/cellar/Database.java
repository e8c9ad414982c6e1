package dev.cellar;

import java.io.IOException;

/**
 * A database to read and write, wherever it runs: an embedded {@link Cellar} opened on a
 * directory, or a client connected to {@code cellar serve} ({@code
 * dev.cellar.client.CellarClient}).
 * Code written against this interface, {@link Table} and {@link Admin} moves from one to the
 * other by changing the line that opens the database. Implementations are thread-safe.
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
