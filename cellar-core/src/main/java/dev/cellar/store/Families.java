package dev.cellar.store;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A region's stores at one moment, in family order, with their names as memory to find a cell's
 * store without a copy. Immutable: an alter builds a new one ({@link #with}, {@link #without}) and
 * the region publishes it through a volatile field, so an operation that reads it once works on one
 * consistent set of families throughout.
 */
final class Families {

  private final Map<String, Store> byName;
  private final Store[] stores;
  private final MemorySegment[] names;

  Families(Collection<Store> stores) {
    Map<String, Store> sorted = new TreeMap<>();
    for (Store store : stores) {
      sorted.put(store.family().nameString(), store);
    }
    this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(sorted));
    this.stores = sorted.values().toArray(Store[]::new);
    this.names = new MemorySegment[this.stores.length];
    for (int i = 0; i < this.stores.length; i++) {
      names[i] = MemorySegment.ofArray(this.stores[i].family().name());
    }
  }

  /** The stores by family name, in family order. */
  Map<String, Store> byName() {
    return byName;
  }

  /** The stores in family order; the caller must not change the array. */
  Store[] array() {
    return stores;
  }

  Collection<Store> all() {
    return byName.values();
  }

  int size() {
    return stores.length;
  }

  /** The store of the cell's family, or null if there is no such family. */
  Store storeOf(Cell cell) {
    for (int i = 0; i < stores.length; i++) {
      MemorySegment family = names[i];
      if (Bytes.equals(
          cell.segment(),
          cell.familyOffset(),
          cell.familyLength(),
          family,
          0,
          (int) family.byteSize())) {
        return stores[i];
      }
    }
    return null;
  }

  /** These families and {@code added}. */
  Families with(Store added) {
    List<Store> next = new ArrayList<>(byName.values());
    next.add(added);
    return new Families(next);
  }

  /** These families without {@code family}. */
  Families without(String family) {
    Map<String, Store> next = new LinkedHashMap<>(byName);
    next.remove(family);
    return new Families(next.values());
  }
}
