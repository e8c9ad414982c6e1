package dev.cellar.cli.experiments.showdown;

import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.Table;
import dev.cellar.cli.pe.PeData;
import dev.cellar.cli.pe.Worker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One client's multi-gets, as the off-heap seed's first PE test: each operation is one {@link
 * Table#get(List)} of {@value #BATCH} rows drawn uniformly among the table's rows, and counts the
 * rows it found. A row that is not found fails the run, since every row was written.
 */
final class MultiGets implements Worker {

  static final int BATCH = 100;

  private final Table table;
  private final long rows;
  private final SplittableRandom random;

  MultiGets(Table table, long rows, long seed) {
    this.table = table;
    this.rows = rows;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public long execute(long iteration) throws IOException {
    List<Get> gets = new ArrayList<>(BATCH);
    for (int i = 0; i < BATCH; i++) {
      gets.add(new Get(PeData.format(random.nextLong(rows))));
    }
    Result[] results = table.get(gets);
    long found = 0;
    try {
      for (Result result : results) {
        if (!result.isEmpty()) {
          found++;
        }
      }
    } finally {
      for (Result result : results) {
        result.close();
      }
    }
    if (found != BATCH) {
      throw new IOException("a multi-get of " + BATCH + " written rows found " + found);
    }
    return found;
  }

  @Override
  public void close() {}
}
