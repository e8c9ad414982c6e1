package dev.cellar.cli.pe;

import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.filter.BinaryComparator;
import dev.cellar.filter.CompareOperator;
import dev.cellar.filter.Filter;
import dev.cellar.filter.FilterAllFilter;
import dev.cellar.filter.FilterList;
import dev.cellar.filter.PageFilter;
import dev.cellar.filter.SingleColumnValueFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A thread's short scans, one complete scan per operation, read to its end:
 *
 * <ul>
 *   <li>scanRange10 .. scanRange10000: from a random row to that row plus the range (exclusive);
 *   <li>randomSeekScan: from a random row, at most 120 rows ({@link PageFilter});
 *   <li>filterScan: the whole table, keeping rows whose {@code info0:0} equals a random value of
 *       PE's data ({@link SingleColumnValueFilter}); usually none.
 * </ul>
 *
 * With {@code --filterAll} a {@link FilterAllFilter} joins the filters, so the scans read every row
 * and return none. Every result is closed once read.
 */
final class PeRangeScans implements Worker {

  private static final int SEEK_SCAN_ROWS = 120;

  private final Table table;
  private final PeWorkload workload;
  private final PeOptions options;
  private final PeColumns columns;
  private final SplittableRandom random;
  private final ValueSizes sizes;

  PeRangeScans(Table table, PeOptions options, PeColumns columns, int thread) {
    this.table = table;
    this.workload = options.workload();
    this.options = options;
    this.columns = columns;
    this.random = new SplittableRandom(options.seed() + thread);
    this.sizes = ValueSizes.of(options, random);
  }

  @Override
  public long execute(long iteration) throws IOException {
    Scan scan = scan();
    long rows = 0;
    try (ResultScanner scanner = table.scanner(scan)) {
      for (Result result = scanner.next(); result != null; result = scanner.next()) {
        result.close();
        rows++;
      }
    }
    return rows;
  }

  private Scan scan() {
    Scan scan = new Scan().setCacheBlocks(options.cacheBlocks());
    List<Filter> filters = new ArrayList<>();
    if (workload == PeWorkload.FILTER_SCAN) {
      columns.addFirstFamilyTo(scan);
      byte[] value = PeData.generateData(random, sizes.next());
      filters.add(
          new SingleColumnValueFilter(
              columns.families()[0],
              columns.qualifiers()[0],
              CompareOperator.EQUAL,
              new BinaryComparator(value)));
    } else {
      columns.addTo(scan);
      long start = random.nextLong(options.totalRows());
      scan.withStartRow(PeData.format(start));
      if (workload == PeWorkload.RANDOM_SEEK_SCAN) {
        filters.add(new PageFilter(SEEK_SCAN_ROWS));
      } else {
        scan.withStopRow(PeData.format(start + workload.scanRange()));
      }
    }
    if (options.filterAll()) {
      filters.add(new FilterAllFilter());
    }
    if (!filters.isEmpty()) {
      scan.setFilter(
          filters.size() == 1
              ? filters.get(0)
              : new FilterList(FilterList.Operator.MUST_PASS_ALL, filters));
    }
    return scan;
  }

  @Override
  public void close() {}
}
