package dev.cellar.hfile.bloom;

import dev.cellar.memory.Buf;
import java.io.IOException;

/**
 * Loads a bloom chunk's payload for {@link CompoundBloomReader}; the HFile reader implements it
 * through its block cache. Implementations must be safe to call from every thread that probes the
 * bloom.
 */
@FunctionalInterface
public interface ChunkLoader {

  /**
   * Returns the payload (the bit array, without block header or checksums) of the {@code
   * BLOOM_CHUNK} block at {@code offset}, as a retained buffer whose capacity is exactly the
   * payload's size. The caller releases it once.
   *
   * @param offset the block's offset in the file, from the bloom index
   * @param onDiskSize the block's full on-disk size (header, payload, checksums), from the index
   * @throws IOException if the block cannot be read
   */
  Buf load(long offset, int onDiskSize) throws IOException;
}
