package dev.cellar.cli.experiments.encoding;

import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.Table;
import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * One thread's Gets of whole random rows of the {@link PhoenixRows} table, caching the blocks they
 * read or not. A Get that finds no row fails the run: every row was written.
 */
final class RandomGets implements Worker {

  private final Table table;
  private final long rows;
  private final boolean cacheBlocks;
  private final SplittableRandom random;

  RandomGets(Table table, long rows, boolean cacheBlocks, long seed) {
    this.table = table;
    this.rows = rows;
    this.cacheBlocks = cacheBlocks;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public long execute(long iteration) throws IOException {
    long row = random.nextLong(rows);
    Get get = new Get(PhoenixRows.key(row)).setCacheBlocks(cacheBlocks);
    try (Result result = table.get(get)) {
      if (result.isEmpty()) {
        throw new IOException("row " + row + " was written but a Get found nothing");
      }
      return 1;
    }
  }

  @Override
  public void close() {}
}
