package dev.cellar.cli.pe;

import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.filter.FilterAllFilter;
import java.io.IOException;

/**
 * A thread's part of PE's scan: one scanner from the thread's first row to the table's end, opened
 * by the first operation; each operation reads the next row (and closes its result).
 */
final class PeScan implements Worker {

  private final Table table;
  private final PeColumns columns;
  private final PeOptions options;
  private final byte[] firstRow;
  private ResultScanner scanner;

  PeScan(Table table, PeOptions options, PeColumns columns, int thread) {
    this.table = table;
    this.columns = columns;
    this.options = options;
    this.firstRow = PeData.format(thread * options.rowsPerThread());
  }

  @Override
  public long execute(long iteration) throws IOException {
    if (scanner == null) {
      Scan scan = new Scan().withStartRow(firstRow).setCacheBlocks(options.cacheBlocks());
      columns.addTo(scan);
      if (options.filterAll()) {
        scan.setFilter(new FilterAllFilter());
      }
      scanner = table.scanner(scan);
    }
    try (Result result = scanner.next()) {
      return result == null ? 0 : 1;
    }
  }

  @Override
  public void close() {
    if (scanner != null) {
      scanner.close();
    }
  }
}
