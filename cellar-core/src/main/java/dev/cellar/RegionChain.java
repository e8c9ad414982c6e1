package dev.cellar;

import dev.cellar.store.Region;
import java.io.IOException;
import java.util.List;

/**
 * Runs an alter over every region of a table with the table's descriptor written once. Each region
 * takes the alter with a record to call at the point its order requires (see {@link
 * Region#addFamily} and its siblings); here the record of each region is the next region's alter,
 * and the last region's record writes the descriptor. So every region has done what must precede
 * the descriptor before it is written, and does what must follow it after, as one region alone
 * does; the regions' locks are taken in key order. Stateless.
 */
final class RegionChain {

  private RegionChain() {}

  /** One region's part of an alter, calling {@code next} where its record belongs. */
  @FunctionalInterface
  interface Step {
    void apply(Region region, Region.SchemaRecord next) throws IOException;
  }

  /**
   * Applies {@code step} to each of {@code regions}, with {@code record} called once, innermost.
   */
  static void alter(List<Region> regions, Step step, Region.SchemaRecord record)
      throws IOException {
    apply(regions, 0, step, record);
  }

  private static void apply(List<Region> regions, int index, Step step, Region.SchemaRecord record)
      throws IOException {
    if (index == regions.size()) {
      record.write();
      return;
    }
    step.apply(regions.get(index), () -> apply(regions, index + 1, step, record));
  }
}
