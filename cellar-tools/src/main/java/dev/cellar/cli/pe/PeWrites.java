package dev.cellar.cli.pe;

import dev.cellar.Put;
import dev.cellar.Table;
import dev.cellar.schema.Durability;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * A thread's puts for sequentialWrite (rows start, start+1, ...) and randomWrite (rows drawn
 * uniformly among all rows): each operation writes one row, every family and column, with values of
 * PE's data and sizes, and {@code SKIP_WAL} when {@code --writeToWAL=false}. Every put is written
 * on its own, as PE's {@code --autoFlush=true} does.
 */
final class PeWrites implements Worker {

  private final Table table;
  private final PeColumns columns;
  private final SplittableRandom random;
  private final ValueSizes sizes;
  private final boolean sequential;
  private final long firstRow;
  private final long totalRows;
  private final Durability durability;

  PeWrites(Table table, PeOptions options, PeColumns columns, int thread, boolean sequential) {
    this.table = table;
    this.columns = columns;
    this.random = new SplittableRandom(options.seed() + thread);
    this.sizes = ValueSizes.of(options, random);
    this.sequential = sequential;
    this.firstRow = thread * options.rowsPerThread();
    this.totalRows = options.totalRows();
    this.durability = options.writeToWal() ? Durability.USE_DEFAULT : Durability.SKIP_WAL;
  }

  @Override
  public long execute(long iteration) throws IOException {
    long row = sequential ? firstRow + iteration : random.nextLong(totalRows);
    Put put = new Put(PeData.format(row));
    for (byte[] family : columns.families()) {
      for (byte[] qualifier : columns.qualifiers()) {
        put.addColumn(family, qualifier, PeData.generateData(random, sizes.next()));
      }
    }
    put.setDurability(durability);
    table.put(put);
    return 1;
  }

  @Override
  public void close() {}
}
