package dev.cellar.cli.experiments.encoding;

import dev.cellar.Admin;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Table;
import dev.cellar.cli.pe.CacheFigures;
import java.io.IOException;

/**
 * Where one encoding and compression pair's table lives while it is measured, and what it occupies
 * there: a fresh embedded database of its own ({@link EmbeddedPairStore}) or a table of a running
 * server ({@link ServedPairStore}). {@link #close()} removes the table and what holds it. Used by
 * one thread.
 */
interface PairStore extends AutoCloseable {

  /** Makes the pair's store: its table created with {@code family}, empty. */
  interface Factory extends AutoCloseable {

    PairStore create(String encoding, String compression, ColumnFamilyDescriptor family)
        throws IOException;

    /** Where the tables are, for the report: "embedded" or the server's address. */
    String describe();

    @Override
    void close() throws IOException;
  }

  Admin admin();

  Table table();

  String tableName();

  /** The bytes of the table's files now. */
  long diskBytes() throws IOException;

  /** The bytes the block cache holds now, this table's and any other's. */
  long cachedBytes() throws IOException;

  /** The block cache's lookups so far, per tier, this table's and any other's. */
  CacheFigures cache() throws IOException;

  @Override
  void close() throws IOException;
}
