package dev.cellar;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;

/**
 * Delete markers for one row, with HBase's four kinds. A Delete with no marker added deletes the
 * whole row (every family, every version up to now).
 */
public final class Delete extends Mutation {

  public Delete(byte[] row) {
    super(row);
  }

  /** Every version of every column of {@code family} (up to the time of the delete). */
  public Delete addFamily(byte[] family) {
    return addFamily(family, KeyValue.LATEST_TIMESTAMP);
  }

  /** Every version of every column of {@code family} with timestamp ≤ {@code timestamp}. */
  public Delete addFamily(byte[] family, long timestamp) {
    return marker(family, Bytes.EMPTY, timestamp, CellType.DELETE_FAMILY);
  }

  /** Every column's version of {@code family} whose timestamp is exactly {@code timestamp}. */
  public Delete addFamilyVersion(byte[] family, long timestamp) {
    return marker(family, Bytes.EMPTY, timestamp, CellType.DELETE_FAMILY_VERSION);
  }

  /** Every version of family:qualifier (up to the time of the delete). */
  public Delete addColumns(byte[] family, byte[] qualifier) {
    return addColumns(family, qualifier, KeyValue.LATEST_TIMESTAMP);
  }

  /** Every version of family:qualifier with timestamp ≤ {@code timestamp}. */
  public Delete addColumns(byte[] family, byte[] qualifier, long timestamp) {
    return marker(family, qualifier, timestamp, CellType.DELETE_COLUMN);
  }

  /**
   * The version of family:qualifier with exactly {@code timestamp}. (HBase's form without a
   * timestamp, "the latest version", needs a read; give the timestamp.)
   */
  public Delete addColumn(byte[] family, byte[] qualifier, long timestamp) {
    return marker(family, qualifier, timestamp, CellType.DELETE);
  }

  private Delete marker(byte[] family, byte[] qualifier, long timestamp, CellType type) {
    if (timestamp < 0) {
      throw new IllegalArgumentException("timestamp must be >= 0, was " + timestamp);
    }
    add(KeyValue.create(rowUnsafe(), family, qualifier, timestamp, type, Bytes.EMPTY));
    return this;
  }

  @Override
  public Delete setDurability(Durability durability) {
    super.setDurability(durability);
    return this;
  }
}
