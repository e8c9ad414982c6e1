package dev.cellar.hfile.encoding;

import dev.cellar.cell.Cell;
import dev.cellar.schema.DataBlockEncoding;

/**
 * Writes PREFIX data blocks. Not thread-safe; one per file writer, reused for every block.
 *
 * <p>Layout: the {@link DeltaEncoder common header} (id 2), no preamble, then each cell:
 *
 * <pre>
 *  CINT   keyLength - common     (the whole key length for the first cell)
 *  CINT   valueLength
 *  CINT   common                 (0 for the first cell)
 *         key bytes [common, keyLength): the serialized key minus the prefix it shares with the
 *         previous key, {@link PreviousKey counted} with timestamp and type
 *         value
 *         common suffix: tags, mvcc
 * </pre>
 *
 * A reader rebuilds the key as the previous key's first {@code common} bytes followed by the stored
 * bytes.
 */
final class PrefixEncoder extends DeltaEncoder {

  PrefixEncoder(EncodingContext context) {
    super(context, DataBlockEncoding.PREFIX);
  }

  @Override
  void encodeFirst(Cell cell) {
    write(cell, 0);
  }

  @Override
  void encodeNext(Cell cell) {
    write(cell, previous.commonPrefix(cell, true));
  }

  private void write(Cell cell, int common) {
    int keyLength = cell.keyLength();
    out.writeCompressedInt(keyLength - common);
    out.writeCompressedInt(cell.valueLength());
    out.writeCompressedInt(common);
    out.write(cell.segment(), cell.keyOffset() + common, keyLength - common);
    out.write(cell.valueSegment(), cell.valueOffset(), cell.valueLength());
  }
}
