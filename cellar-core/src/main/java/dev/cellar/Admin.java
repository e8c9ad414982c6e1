package dev.cellar;

import java.io.IOException;
import java.util.List;

/** Creates, lists, describes and drops tables, and flushes and compacts them. Thread-safe. */
public interface Admin {

  /** Creates a table; fails if one of that name exists. */
  void createTable(TableDescriptor descriptor) throws IOException;

  /** The table names, sorted. */
  List<String> listTables();

  /** The table's descriptor. @throws TableNotFoundException if there is none */
  TableDescriptor describe(String table);

  boolean tableExists(String table);

  /** Deletes a table and its data. */
  void dropTable(String table) throws IOException;

  /** Writes the table's MemStores to files. */
  void flush(String table) throws IOException;

  /** Runs a minor compaction on each family that needs one. */
  void compact(String table) throws IOException;

  /** Merges each family's files into one, dropping deleted, expired and surplus versions. */
  void majorCompact(String table) throws IOException;
}
