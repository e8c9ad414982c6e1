package dev.cellar.store.memstore;

import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.lang.foreign.MemorySegment;

/**
 * A cell copied into an MSLAB chunk: an immutable view of a contiguous KeyValue serialization in
 * the chunk's memory, plus the sequence id it was added with (HBase's {@code
 * ByteBufferChunkKeyValue}).
 *
 * <p><b>Lifetime.</b> The view holds no reference of its own: it is readable while the MSLAB that
 * owns the chunk keeps it, that is until the MSLAB is closed and the last scanner over it closed.
 * After that the chunk may be reused by another MSLAB and the view would read its cells; the
 * memstore hands out views only through scanners that hold the MSLAB, which rules that out.
 *
 * <p><b>Cost.</b> The lengths the layout cannot give by position are kept in fields taken from the
 * source cell, so comparing never reads them from memory; the row, family and tags lengths fit
 * their layout limits in a {@code short}, {@code short} and {@code char}. Immutable and
 * thread-safe.
 */
final class ChunkCell implements Cell {

  private final MemorySegment segment;
  private final int offset;
  private final int length;
  private final int keyLength;
  private final int valueLength;
  private final short rowLength;
  private final short familyLength;
  private final char tagsLength;
  private final long sequenceId;

  /** A view of {@code source}'s serialization, copied to {@code chunk} at {@code offset}. */
  ChunkCell(MemorySegment chunk, int offset, Cell source, long sequenceId) {
    this.segment = chunk;
    this.offset = offset;
    this.length = source.length();
    this.keyLength = source.keyLength();
    this.valueLength = source.valueLength();
    this.rowLength = (short) source.rowLength();
    this.familyLength = (short) source.familyLength();
    this.tagsLength = (char) source.tagsLength();
    this.sequenceId = sequenceId;
  }

  @Override
  public MemorySegment segment() {
    return segment;
  }

  @Override
  public long offset() {
    return offset;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public int keyLength() {
    return keyLength;
  }

  @Override
  public int valueLength() {
    return valueLength;
  }

  @Override
  public int rowLength() {
    return rowLength;
  }

  @Override
  public int familyLength() {
    return familyLength;
  }

  @Override
  public int tagsLength() {
    return tagsLength;
  }

  @Override
  public long sequenceId() {
    return sequenceId;
  }

  /** Returns the cell as HBase prints a KeyValue (through a heap copy; for diagnostics only). */
  @Override
  public String toString() {
    return KeyValue.copyOf(this).toString();
  }
}
