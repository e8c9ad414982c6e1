package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.schema.DataBlockEncoding;

/**
 * Reads NONE data blocks (layout in {@link NoneEncoder}). Not thread-safe; one per reader thread,
 * reused across blocks.
 *
 * <p>The payload is nothing but cells, so without an index a seek walks forward: from the current
 * cell when it already qualifies (a forward seek, as scanners issue), otherwise from the first
 * cell. With a {@link CellOffsets} index it starts from the last indexed cell that qualifies, found
 * by a binary search, unless that cell lies behind the current one; a forward seek to a cell close
 * ahead costs one comparison with the next indexed cell.
 */
final class NoneSeeker extends PlainSeeker {

  private final CellOffsets.Builder indexBuilder = new CellOffsets.Builder();

  NoneSeeker(EncodingContext context) {
    super(context, DataBlockEncoding.NONE);
  }

  @Override
  void locateCells() {
    setCells(0, in.limit());
  }

  @Override
  public SeekIndex indexBlock() {
    checkBlock();
    CellOffsets.Builder builder = indexBuilder.start(in, cellsStart(), cellsEnd() - cellsStart());
    int previous = cellsStart();
    for (int at = skipCell(previous); at < cellsEnd(); ) {
      int next = skipCell(at);
      builder.cell(at, previous);
      previous = at;
      at = next;
    }
    CellOffsets index = builder.build();
    useIndex(index);
    rewind();
    return index;
  }

  @Override
  int seekStart(Cell key, boolean seekBefore) {
    boolean forward = hasCurrent() && qualifies(compareAt(key, position()), seekBefore);
    CellOffsets offsets = offsets();
    if (offsets != null) {
      int from = forward ? offsets.firstAfter(position()) : 0;
      int found = offsets.lastQualifying(key, seekBefore, from, in.segment());
      if (found >= 0) {
        if (found + 1 < offsets.count()) {
          knownStop(offsets.offset(found + 1));
        }
        return offsets.offset(found);
      }
      if (from < offsets.count()) {
        knownStop(offsets.offset(from));
      }
    } else if (!forward) {
      skipCell(cellsStart());
      return qualifies(compareAt(key, cellsStart()), seekBefore) ? cellsStart() : -1;
    }
    return forward ? position() : -1;
  }
}
