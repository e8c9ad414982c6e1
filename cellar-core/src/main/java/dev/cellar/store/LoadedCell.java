package dev.cellar.store;

import dev.cellar.cell.Cell;
import dev.cellar.cell.CellType;
import dev.cellar.cell.Tag;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A cell of a bulk-loaded file seen with the file's sequence id instead of its own, as HBase's
 * {@code StoreFileScanner} presents every cell of a bulk-loaded file: whatever ids the writer
 * stored per cell (another system's sequence space, or none) never order the file's cells against
 * the table's. A flyweight: one per scanner, pointed at each current cell in turn, so reading a
 * bulk-loaded file allocates nothing per cell. Not thread-safe.
 */
final class LoadedCell implements Cell {

  private final long sequenceId;
  private Cell cell;

  LoadedCell(long sequenceId) {
    this.sequenceId = sequenceId;
  }

  /** This flyweight over {@code current}, or null for null. */
  Cell over(Cell current) {
    if (current == null) {
      return null;
    }
    cell = current;
    return this;
  }

  @Override
  public long sequenceId() {
    return sequenceId;
  }

  @Override
  public MemorySegment segment() {
    return cell.segment();
  }

  @Override
  public long offset() {
    return cell.offset();
  }

  @Override
  public int length() {
    return cell.length();
  }

  @Override
  public int keyLength() {
    return cell.keyLength();
  }

  @Override
  public int valueLength() {
    return cell.valueLength();
  }

  @Override
  public int rowLength() {
    return cell.rowLength();
  }

  @Override
  public int familyLength() {
    return cell.familyLength();
  }

  @Override
  public int tagsLength() {
    return cell.tagsLength();
  }

  @Override
  public long keyOffset() {
    return cell.keyOffset();
  }

  @Override
  public long rowOffset() {
    return cell.rowOffset();
  }

  @Override
  public long familyOffset() {
    return cell.familyOffset();
  }

  @Override
  public long qualifierOffset() {
    return cell.qualifierOffset();
  }

  @Override
  public int qualifierLength() {
    return cell.qualifierLength();
  }

  @Override
  public long timestamp() {
    return cell.timestamp();
  }

  @Override
  public byte typeByte() {
    return cell.typeByte();
  }

  @Override
  public CellType type() {
    return cell.type();
  }

  @Override
  public MemorySegment valueSegment() {
    return cell.valueSegment();
  }

  @Override
  public long valueOffset() {
    return cell.valueOffset();
  }

  @Override
  public MemorySegment tagsSegment() {
    return cell.tagsSegment();
  }

  @Override
  public long tagsOffset() {
    return cell.tagsOffset();
  }

  @Override
  public byte[] rowArray() {
    return cell.rowArray();
  }

  @Override
  public byte[] familyArray() {
    return cell.familyArray();
  }

  @Override
  public byte[] qualifierArray() {
    return cell.qualifierArray();
  }

  @Override
  public byte[] valueArray() {
    return cell.valueArray();
  }

  @Override
  public byte[] tagsArray() {
    return cell.tagsArray();
  }

  @Override
  public List<Tag> tags() {
    return cell.tags();
  }

  @Override
  public String toString() {
    return cell + " (loaded at " + sequenceId + ")";
  }
}
