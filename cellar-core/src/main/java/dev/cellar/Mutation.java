package dev.cellar;

import dev.cellar.cell.KeyValue;
import dev.cellar.schema.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Changes to one row, applied atomically: a {@link Put} or a {@link Delete}. Cells without an
 * explicit timestamp get the time of the write. Not thread-safe while being built.
 */
public abstract sealed class Mutation permits Put, Delete {

  private final byte[] row;
  private final List<KeyValue> cells = new ArrayList<>();
  private Durability durability = Durability.USE_DEFAULT;

  Mutation(byte[] row) {
    Objects.requireNonNull(row, "row");
    if (row.length == 0) {
      throw new IllegalArgumentException("a row key is at least one byte");
    }
    this.row = row.clone();
  }

  public byte[] row() {
    return row.clone();
  }

  byte[] rowUnsafe() {
    return row;
  }

  public Durability durability() {
    return durability;
  }

  /** Sets how durable the mutation is when the call returns. */
  public Mutation setDurability(Durability durability) {
    this.durability = Objects.requireNonNull(durability, "durability");
    return this;
  }

  void add(KeyValue cell) {
    cells.add(cell);
  }

  /** The cells of the mutation; timestamps of {@link KeyValue#LATEST_TIMESTAMP} mean "now". */
  public List<KeyValue> cells() {
    return List.copyOf(cells);
  }

  /** The mutation's own list of cells, for the table to read while it applies them. */
  List<KeyValue> cellsUnsafe() {
    return cells;
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }
}
