package dev.cellar.cli.experiments.showdown;

import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.cli.pe.PeData;
import dev.cellar.cli.pe.Worker;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterAllFilter;
import dev.cellar.filter.RowFilter;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * One client's range scans of {@value ReadWorkload#SCAN_ROWS} rows from a random row, as the
 * off-heap seed's PE tests: every row read and filtered out on the server ({@link
 * FilterAllFilter}), or a tenth of them returned: a {@link RowFilter} keeps the range's first
 * {@value #RETURNED} rows and drops the others, so the server still reads the whole range. Both are
 * filters HBase's client can send, so the scans run the same embedded and through the network. An
 * operation is one scan; it counts the rows returned.
 */
final class RangeScans implements Worker {

  static final int RETURNED = ReadWorkload.SCAN_ROWS / 10;

  private final Table table;
  private final long rows;
  private final boolean tenth;
  private final SplittableRandom random;

  RangeScans(Table table, long rows, boolean tenth, long seed) {
    this.table = table;
    this.rows = rows;
    this.tenth = tenth;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public long execute(long iteration) throws IOException {
    long start = random.nextLong(Math.max(1, rows - ReadWorkload.SCAN_ROWS));
    Filter filter =
        tenth
            ? new RowFilter(
                CompareOperator.LESS, new BinaryComparator(PeData.format(start + RETURNED)))
            : new FilterAllFilter();
    Scan scan =
        new Scan()
            .withStartRow(PeData.format(start))
            .withStopRow(PeData.format(start + ReadWorkload.SCAN_ROWS))
            .setFilter(filter);
    long returned = 0;
    try (ResultScanner scanner = table.scanner(scan)) {
      while (true) {
        try (Result result = scanner.next()) {
          if (result == null) {
            return returned;
          }
          returned++;
        }
      }
    }
  }

  @Override
  public void close() {}
}
