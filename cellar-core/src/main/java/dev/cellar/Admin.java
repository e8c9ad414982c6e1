package dev.cellar;

import java.io.IOException;
import java.util.List;

/**
 * Creates, lists, describes, alters and drops tables, and flushes and compacts them. Alters are
 * online, as HBase's: the table keeps serving reads and writes meanwhile. Thread-safe.
 */
public interface Admin {

  /** Creates a table of one region; fails if one of that name exists. */
  void createTable(TableDescriptor descriptor) throws IOException;

  /**
   * Creates a table pre-split into regions at {@code splitKeys} (HBase's {@code createTable(desc,
   * splitKeys)}): {@code n} keys make {@code n + 1} regions, the first from the table's first row
   * to the smallest key, the last from the largest key on. The keys are sorted first; none makes
   * one region.
   *
   * @throws IllegalArgumentException if a key is empty or two are equal, or the table exists
   */
  void createTable(TableDescriptor descriptor, byte[][] splitKeys) throws IOException;

  /**
   * Creates a table of {@code numRegions} regions, the first ending at {@code startKey}, the last
   * starting at {@code endKey} and the range between cut evenly, as HBase's {@code
   * createTable(desc, startKey, endKey, numRegions)} ({@link SplitAlgorithm#between}).
   *
   * @throws IllegalArgumentException if {@code numRegions} is less than 3 or the keys are not in
   *     order
   */
  default void createTable(
      TableDescriptor descriptor, byte[] startKey, byte[] endKey, int numRegions)
      throws IOException {
    createTable(descriptor, SplitAlgorithm.between(startKey, endKey, numRegions));
  }

  /**
   * The table's regions in key order (HBase's {@code getRegions}). A table created without split
   * keys is one region, whose id is 0 embedded (a server names it by the id it gave the table).
   *
   * @throws TableNotFoundException if there is no such table
   */
  List<RegionInfo> regions(String table) throws IOException;

  /** The table names, sorted. */
  List<String> listTables();

  /** The table's descriptor. @throws TableNotFoundException if there is none */
  TableDescriptor describe(String table);

  boolean tableExists(String table);

  /**
   * Adds a family to a table (HBase's {@code addColumnFamily}).
   *
   * @throws IllegalArgumentException if the table has that family already
   * @throws TableNotFoundException if there is no such table
   */
  void addFamily(String table, ColumnFamilyDescriptor family) throws IOException;

  /**
   * Deletes a family and its data (HBase's {@code deleteColumnFamily}). Scanners opened before keep
   * reading the family's files until they close.
   *
   * @throws IllegalArgumentException if the table has no such family, or no other
   * @throws TableNotFoundException if there is no such table
   */
  void deleteFamily(String table, String family) throws IOException;

  /**
   * Changes a family's attributes (HBase's {@code modifyColumnFamily}). Versions, TTL and block
   * caching apply to reads from then on; block size, encoding, compression and bloom filter to
   * files written from then on (existing files keep theirs until a compaction rewrites them).
   *
   * @throws IllegalArgumentException if the table has no such family
   * @throws TableNotFoundException if there is no such table
   */
  void modifyFamily(String table, ColumnFamilyDescriptor family) throws IOException;

  /**
   * Gives a table the families of {@code descriptor} (HBase's {@code modifyTable}): families it
   * lacks are added, families it no longer lists are deleted and changed ones are modified, one
   * family at a time.
   *
   * @throws TableNotFoundException if there is no such table
   */
  void modifyTable(TableDescriptor descriptor) throws IOException;

  /** Deletes a table and its data. */
  void dropTable(String table) throws IOException;

  /** Writes the table's MemStores to files. */
  void flush(String table) throws IOException;

  /**
   * Flushes one region's MemStore (HBase's {@code flushRegion}), named as {@link #regions} names
   * it.
   *
   * @throws IllegalArgumentException if no region of any table has that name
   */
  void flushRegion(byte[] regionName) throws IOException;

  /**
   * Compacts one region (HBase's {@code compactRegion} and {@code majorCompactRegion}), named as
   * {@link #regions} names it.
   *
   * @throws IllegalArgumentException if no region of any table has that name
   */
  void compactRegion(byte[] regionName, boolean major) throws IOException;

  /** Runs a minor compaction on each family that needs one. */
  void compact(String table) throws IOException;

  /** Merges each family's files into one, dropping deleted, expired and surplus versions. */
  void majorCompact(String table) throws IOException;
}
