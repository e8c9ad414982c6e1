package dev.cellar.interop;

import dev.cellar.hfile.BlockHeader;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * An HBase-written file without compression and a copy of it with one bit flipped in the middle of
 * the first cell's value, inside the first data block (at offset 0): only the block's checksums can
 * tell the two apart.
 *
 * @param original the file as HBase wrote it
 * @param corrupt the copy with the flipped bit
 */
record CorruptedFile(Path original, Path corrupt) {

  private static final int VALUE_LENGTH = 100;

  /** Writes 500 puts to {@code dir/original} with HBase and the corrupted copy beside it. */
  static CorruptedFile write(HBaseHFiles hbase, Path dir) throws IOException {
    List<CellSpec> cells = TestCells.puts(500, VALUE_LENGTH);
    Path original = dir.resolve("original");
    hbase.write(original, cells, Spec.defaults().withBlockSizes(4 * 1024, 1024));
    Path corrupt = dir.resolve("corrupt");
    Files.copy(original, corrupt);
    int keyLength = cells.getFirst().toHBase().getKeyLength();
    long offset = BlockHeader.SIZE + 2 * Integer.BYTES + keyLength + VALUE_LENGTH / 2;
    try (RandomAccessFile file = new RandomAccessFile(corrupt.toFile(), "rw")) {
      file.seek(offset);
      int b = file.read();
      file.seek(offset);
      file.write(b ^ 0x01);
    }
    return new CorruptedFile(original, corrupt);
  }
}
