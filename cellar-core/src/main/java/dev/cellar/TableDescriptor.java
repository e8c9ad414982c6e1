package dev.cellar;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A table's name and column families, families sorted by name (the order cells of a row come in).
 * The name follows HBase's rules ({@code [namespace:]qualifier}, see {@link TableNames}); a name in
 * the default namespace is kept without it. Immutable.
 */
public record TableDescriptor(String name, List<ColumnFamilyDescriptor> families) {

  public TableDescriptor {
    name = TableNames.checked(name);
    if (families.isEmpty()) {
      throw new IllegalArgumentException("table " + name + " needs at least one column family");
    }
    List<ColumnFamilyDescriptor> sorted = new ArrayList<>(families);
    sorted.sort(Comparator.comparing(ColumnFamilyDescriptor::name));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).name().equals(sorted.get(i - 1).name())) {
        throw new IllegalArgumentException(
            "table " + name + " lists family " + sorted.get(i).name() + " twice");
      }
    }
    families = List.copyOf(sorted);
  }

  /** A table with the given families. */
  public static TableDescriptor of(String name, ColumnFamilyDescriptor... families) {
    return new TableDescriptor(name, List.of(families));
  }

  /** The family named {@code family}, or null. */
  public ColumnFamilyDescriptor family(String family) {
    for (ColumnFamilyDescriptor descriptor : families) {
      if (descriptor.name().equals(family)) {
        return descriptor;
      }
    }
    return null;
  }
}
