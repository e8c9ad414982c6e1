package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;

/**
 * Reads NONE data blocks (layout in {@link NoneEncoder}). Not thread-safe; one per reader thread,
 * reused across blocks.
 *
 * <p>The payload is nothing but cells, so a seek walks forward: from the current cell when it
 * already qualifies (a forward seek, as scanners issue), otherwise from the first cell.
 */
final class NoneSeeker extends PlainSeeker {

  NoneSeeker(EncodingContext context) {
    super(context, DataBlockEncoding.NONE);
  }

  @Override
  void locateCells() {
    setCells(0, in.limit());
  }

  @Override
  int seekStart(Cell key, boolean seekBefore) {
    if (isValid() && qualifies(compareAt(key, position()), seekBefore)) {
      return position();
    }
    cellEnd(cellsStart());
    return qualifies(compareAt(key, cellsStart()), seekBefore) ? cellsStart() : -1;
  }
}
