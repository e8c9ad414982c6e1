package dev.cellar.cli.experiments.encoding;

import dev.cellar.Put;
import dev.cellar.Table;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The seed's data, as Phoenix stores {@code create table test (pk integer primary key, v1 float, v2
 * float)} filled with {@code rand()}: row {@code i} is the 4-byte big-endian int {@code i} with its
 * sign bit flipped (Phoenix's INTEGER, so keys sort as numbers), in family {@code 0} with three
 * cells: Phoenix's empty marker column {@code _0} (one byte) and {@code V1}, {@code V2}, each a
 * random float in [0, 1) as Phoenix's FLOAT bytes (the sign bit flipped). Keys grow monotonically
 * and the values hardly compress, as in the seed.
 */
final class PhoenixRows {

  static final byte[] FAMILY = "0".getBytes(StandardCharsets.US_ASCII);
  static final byte[] EMPTY_COLUMN = "_0".getBytes(StandardCharsets.US_ASCII);
  static final byte[] V1 = "V1".getBytes(StandardCharsets.US_ASCII);
  static final byte[] V2 = "V2".getBytes(StandardCharsets.US_ASCII);
  static final int CELLS_PER_ROW = 3;
  private static final byte[] EMPTY_VALUE = {'x'};
  private static final int BATCH = 1000;

  private PhoenixRows() {}

  /** The key of row {@code number}. */
  static byte[] key(long number) {
    return flipped((int) number);
  }

  /**
   * Writes rows {@code 0 .. rows-1} in batches, without the log (the table is flushed after
   * loading, so nothing depends on it).
   */
  static void load(Table table, long rows, long seed) throws IOException {
    if (rows > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "at most " + Integer.MAX_VALUE + " rows (an int key)," + " asked for " + rows);
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<Put> batch = new ArrayList<>(BATCH);
    for (long row = 0; row < rows; row++) {
      Put put = new Put(key(row));
      put.addColumn(FAMILY, EMPTY_COLUMN, EMPTY_VALUE);
      put.addColumn(FAMILY, V1, floatBytes((float) random.nextDouble()));
      put.addColumn(FAMILY, V2, floatBytes((float) random.nextDouble()));
      put.setDurability(Durability.SKIP_WAL);
      batch.add(put);
      if (batch.size() == BATCH) {
        table.put(batch);
        batch = new ArrayList<>(BATCH);
      }
    }
    if (!batch.isEmpty()) {
      table.put(batch);
    }
  }

  private static byte[] floatBytes(float value) {
    return flipped(Float.floatToIntBits(value));
  }

  private static byte[] flipped(int value) {
    int bits = value ^ Integer.MIN_VALUE;
    return new byte[] {
      (byte) (bits >>> 24), (byte) (bits >>> 16), (byte) (bits >>> 8), (byte) bits
    };
  }
}
