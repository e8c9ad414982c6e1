package dev.cellar.server.filter;

import dev.cellar.filter.Filter;

/**
 * A client's filter as Cellar runs it: the {@link Filter} the scanners drive (null for none), and
 * whether the response drops values (HBase's KeyOnlyFilter), writing the value's length as a 4-byte
 * value instead when {@code lengthAsValue}.
 */
public record ConvertedFilter(Filter filter, boolean keyOnly, boolean lengthAsValue) {

  public static final ConvertedFilter NONE = new ConvertedFilter(null, false, false);
}
