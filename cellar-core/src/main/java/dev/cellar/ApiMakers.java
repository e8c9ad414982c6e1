package dev.cellar;

import dev.cellar.cell.Cell;
import dev.cellar.spi.ApiAccess;
import dev.cellar.store.Pins;
import dev.cellar.store.PointReads;
import dev.cellar.store.RowStream;
import java.util.List;

/**
 * Makes {@link Result}s, {@link RowReader}s and {@link RowScanner}s for Cellar's other modules
 * through {@link ApiAccess}, with which it registers itself when initialized. Stateless.
 */
final class ApiMakers implements ApiAccess.Makers<Get, Result, RowReader, RowScanner> {

  static {
    ApiAccess.register(new ApiMakers());
  }

  private ApiMakers() {}

  @Override
  public Result result(List<? extends Cell> cells, Pins pins) {
    return new Result(List.copyOf(cells), pins);
  }

  @Override
  public RowReader rowReader(PointReads<Get> reads) {
    return new RowReader(reads);
  }

  @Override
  public RowScanner rowScanner(RowStream rows, long limit) {
    return new RowScanner(rows, limit);
  }
}
