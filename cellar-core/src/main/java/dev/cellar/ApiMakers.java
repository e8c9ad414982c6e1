package dev.cellar;

import dev.cellar.spi.RowViews;
import dev.cellar.store.PointReads;
import dev.cellar.store.RowStream;

/**
 * Makes {@link RowReader}s and {@link RowScanner}s for Cellar's other modules through {@link
 * RowViews}, with which it registers itself when initialized. Stateless.
 */
final class ApiMakers implements RowViews.Makers<Get, RowReader, RowScanner> {

  static {
    RowViews.register(new ApiMakers());
  }

  private ApiMakers() {}

  @Override
  public RowReader rowReader(PointReads<Get> reads) {
    return new RowReader(reads);
  }

  @Override
  public RowScanner rowScanner(RowStream rows, long limit) {
    return new RowScanner(rows, limit);
  }
}
