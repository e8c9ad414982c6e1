package dev.cellar.cli.pe;

import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.RowReader;
import dev.cellar.Table;
import dev.cellar.filter.FilterAllFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A thread's gets for sequentialRead (rows start, start+1, ...) and randomRead (rows drawn
 * uniformly among all rows), asking for every column, with {@code --cacheBlocks} and, with {@code
 * --filterAll}, a {@link FilterAllFilter}. With {@code --multiGet=N} gets are gathered and sent N
 * at a time, as PE does: the operation that completes a batch (or the thread's last operation) runs
 * it and counts its rows found, the others only queue. Every result is closed as soon as it was
 * counted. With {@code --rowReader} (and no multi-get) a thread reads through one {@link RowReader}
 * and one reused Get instead, allocating nothing per read.
 */
final class PeGets implements Worker {

  private final Table table;
  private final PeColumns columns;
  private final SplittableRandom random;
  private final boolean sequential;
  private final long firstRow;
  private final long totalRows;
  private final boolean cacheBlocks;
  private final boolean filterAll;
  private final int multiGet;
  private final long lastIteration;
  private final List<Get> batch = new ArrayList<>();
  private final byte[] rowKey = new byte[PeData.ROW_LENGTH];

  /** With {@code --rowReader}: the thread's reader and its reused Get; else null. */
  private final RowReader reader;

  private final Get reused;

  PeGets(Table table, PeOptions options, PeColumns columns, int thread, boolean sequential) {
    this.table = table;
    this.columns = columns;
    this.random = new SplittableRandom(options.seed() + thread);
    this.sequential = sequential;
    this.firstRow = thread * options.rowsPerThread();
    this.totalRows = options.totalRows();
    this.cacheBlocks = options.cacheBlocks();
    this.filterAll = options.filterAll();
    this.multiGet = options.multiGet();
    this.lastIteration = options.rowsPerThread() - 1;
    this.reader = options.rowReader() && multiGet == 0 ? table.rowReader() : null;
    this.reused = reader == null ? null : newGet(PeData.format(firstRow));
  }

  private Get newGet(byte[] row) {
    Get get = new Get(row).setCacheBlocks(cacheBlocks);
    columns.addTo(get);
    if (filterAll) {
      get.setFilter(new FilterAllFilter());
    }
    return get;
  }

  @Override
  public long execute(long iteration) throws IOException {
    long row = sequential ? firstRow + iteration : random.nextLong(totalRows);
    if (reader != null) {
      PeData.format(row, rowKey);
      return reader.getView(reused.setRow(rowKey)).isEmpty() ? 0 : 1;
    }
    Get get = newGet(PeData.format(row));
    if (multiGet == 0) {
      try (Result result = table.get(get)) {
        return rows(result);
      }
    }
    batch.add(get);
    return batch.size() < multiGet && iteration < lastIteration ? 0 : runBatch();
  }

  private long runBatch() throws IOException {
    Result[] results = table.get(batch);
    batch.clear();
    long found = 0;
    for (Result result : results) {
      try (result) {
        found += rows(result);
      }
    }
    return found;
  }

  private static long rows(Result result) {
    return result.isEmpty() ? 0 : 1;
  }

  @Override
  public void close() {
    if (reader != null) {
      reader.close();
    }
  }
}
