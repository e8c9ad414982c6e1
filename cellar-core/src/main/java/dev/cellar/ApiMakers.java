package dev.cellar;

import dev.cellar.cell.Cell;
import dev.cellar.row.Pins;
import dev.cellar.row.PointReads;
import dev.cellar.row.RowStream;
import dev.cellar.spi.ApiAccess;
import java.util.List;

/**
 * Makes {@link Result}s, {@link RowReader}s and {@link RowScanner}s, and takes a {@link RowView}'s
 * pins, for Cellar's other modules through {@link ApiAccess}, with which it registers itself when
 * initialized. Stateless.
 */
final class ApiMakers implements ApiAccess.Makers<Get, Result, RowReader, RowScanner, RowView> {

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

  @Override
  public void retainPins(RowView view, Pins into) {
    view.retainPinsInto(into);
  }
}
