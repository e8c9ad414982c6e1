package dev.cellar.store;

import dev.cellar.cell.search.SearchKey;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One reader thread's state for reading single rows of one {@link Region}: a {@link StorePointRead}
 * per family, made on first use, and the row's start key. Pins nothing between reads (see {@link
 * StorePointRead}). Not thread-safe: one per reader thread.
 */
public final class RegionPointRead implements AutoCloseable {

  private final Map<Store, StorePointRead> stores = new IdentityHashMap<>();
  final SearchKey rowStart = new SearchKey();

  StorePointRead of(Store store) {
    StorePointRead state = stores.get(store);
    if (state == null) {
      state = new StorePointRead(store);
      stores.put(store, state);
    }
    return state;
  }

  /** Forgets the per-file scanners; the state may be used again afterwards. */
  @Override
  public void close() {
    stores.values().forEach(StorePointRead::close);
    stores.clear();
  }
}
