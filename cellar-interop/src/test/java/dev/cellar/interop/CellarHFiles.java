package dev.cellar.interop;

import dev.cellar.hfile.HFileContext;
import dev.cellar.hfile.HFileReader;
import dev.cellar.hfile.HFileScanner;
import dev.cellar.hfile.HFileWriter;
import dev.cellar.hfile.bloom.BloomConfig;
import dev.cellar.interop.Spec.Bloom;
import dev.cellar.memory.BufAllocator;
import dev.cellar.schema.BloomType;
import dev.cellar.schema.DataBlockEncoding;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cellar's side of the interop tests, the counterpart of {@link HBaseHFiles}: writes a {@link Spec}
 * with Cellar's writer and reads every cell back with Cellar's scanner. Stateless.
 */
final class CellarHFiles {

  private CellarHFiles() {}

  /** The Cellar file context that writes what {@code spec} describes. */
  static HFileContext context(Spec spec) {
    return HFileContext.builder()
        .blockSize(spec.blockSize())
        .indexBlockMaxSize(spec.indexBlockSize())
        .encoding(DataBlockEncoding.valueOf(spec.encoding().name()))
        .compression(spec.compression())
        .includesTags(spec.includesTags())
        .includesMvcc(spec.includesMvcc())
        .checksumType(spec.checksumType())
        .bytesPerChecksum(spec.bytesPerChecksum())
        .bloomType(BloomType.valueOf(spec.bloom().name()))
        .bloomConfig(
            new BloomConfig(
                BloomConfig.DEFAULT_ERROR_RATE,
                BloomConfig.DEFAULT_MAX_FOLD,
                BloomConfig.DEFAULT_CHUNK_BYTE_SIZE_HINT,
                BloomConfig.DEFAULT_HASH_TYPE,
                spec.bloom() == Bloom.ROWPREFIX_FIXED_LENGTH ? Spec.ROW_PREFIX_LENGTH : 0))
        .build();
  }

  /** Writes {@code cells}, in HBase's order, to a new file with {@code context}. */
  static void write(Path file, List<CellSpec> cells, HFileContext context) throws IOException {
    try (HFileWriter writer = HFileWriter.create(file, context)) {
      for (CellSpec cell : cells) {
        writer.append(cell.toCellar());
      }
    }
  }

  /** Returns every cell Cellar's scanner sees in the file, in file order. */
  static List<CellSpec> read(Path file, BufAllocator allocator) throws IOException {
    List<CellSpec> cells = new ArrayList<>();
    try (HFileReader reader = HFileReader.open(file, allocator);
        HFileScanner scanner = reader.scanner(false)) {
      if (scanner.seekTo()) {
        do {
          cells.add(CellSpec.fromCellar(scanner.current()));
        } while (scanner.next());
      }
    }
    return cells;
  }
}
