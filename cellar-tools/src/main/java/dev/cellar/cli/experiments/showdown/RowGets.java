package dev.cellar.cli.experiments.showdown;

import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.Table;
import dev.cellar.cli.pe.PeData;
import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * One client's PE randomRead: Gets of whole rows drawn uniformly among the table's rows, caching
 * the blocks they read. A Get that finds nothing fails the run, since every row was written.
 */
final class RowGets implements Worker {

  private final Table table;
  private final long rows;
  private final SplittableRandom random;

  RowGets(Table table, long rows, long seed) {
    this.table = table;
    this.rows = rows;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public long execute(long iteration) throws IOException {
    long row = random.nextLong(rows);
    try (Result result = table.get(new Get(PeData.format(row)))) {
      if (result.isEmpty()) {
        throw new IOException("row " + row + " was written but a Get found nothing");
      }
      return 1;
    }
  }

  @Override
  public void close() {}
}
