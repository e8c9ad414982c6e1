package dev.cellar;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;

/** Values to write into one row. */
public final class Put extends Mutation {

  public Put(byte[] row) {
    super(row);
  }

  /** Writes {@code value} at family:qualifier, timestamped with the time of the write. */
  public Put addColumn(byte[] family, byte[] qualifier, byte[] value) {
    return addColumn(family, qualifier, KeyValue.LATEST_TIMESTAMP, value);
  }

  /** Writes {@code value} at family:qualifier with an explicit timestamp. */
  public Put addColumn(byte[] family, byte[] qualifier, long timestamp, byte[] value) {
    if (timestamp < 0) {
      throw new IllegalArgumentException("timestamp must be >= 0, was " + timestamp);
    }
    add(KeyValue.create(rowUnsafe(), family, qualifier, timestamp, CellType.PUT, value));
    return this;
  }

  @Override
  public Put setDurability(Durability durability) {
    super.setDurability(durability);
    return this;
  }
}
