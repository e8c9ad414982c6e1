package dev.cellar.filter;

import dev.cellar.cell.Cell;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Keeps each row with a probability, as HBase's RandomRowFilter: a row is kept when a uniform draw
 * in [0, 1) falls below {@code chance}, so a chance of 0 or less keeps none and 1 or more keeps
 * all. The draw is made once per row, in {@link #filterRowKey}; a dropped row's cells, should they
 * be read anyway (in a MUST_PASS_ONE list), are left a row at a time. Draws are not reproducible:
 * each instance seeds its own generator from the thread's.
 */
public final class RandomRowFilter extends Filter {

  private final float chance;
  private final SplittableRandom random =
      new SplittableRandom(ThreadLocalRandom.current().nextLong());
  private boolean filterOutRow;

  public RandomRowFilter(float chance) {
    this.chance = chance;
  }

  public float chance() {
    return chance;
  }

  @Override
  public void reset() {
    filterOutRow = false;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (chance < 0) {
      filterOutRow = true;
    } else if (chance > 1) {
      filterOutRow = false;
    } else {
      filterOutRow = !(nextFloat() < chance);
    }
    return filterOutRow;
  }

  /** A uniform float in [0, 1) with 24 random bits, as {@link java.util.Random#nextFloat}. */
  private float nextFloat() {
    return (random.nextInt() >>> 8) * 0x1.0p-24f;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    return filterOutRow ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return filterOutRow;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "RandomRowFilter " + chance;
  }
}
