package dev.cellar.server.filter;

import dev.cellar.filter.Filter;

/**
 * Keeps every cell: what HBase's KeyOnlyFilter decides (its work, dropping values, is done when the
 * response is written, see {@link ConvertedFilter#keyOnly()}). Stateless.
 */
final class PassAllFilter extends Filter {

  @Override
  public String toString() {
    return "KeyOnlyFilter";
  }
}
