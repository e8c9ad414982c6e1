package dev.cellar;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

/**
 * Rows {@code row-00000}, {@code row-00001}, ... of table {@code t} (family {@code f}, created on
 * first write), each with one value {@code v<n>} in {@code f:q}, recorded in an oracle; and the
 * table read back the same way, for tests that damage a database and compare what comes back.
 */
final class NumberedRows {

  static final byte[] FAMILY = bytes("f");
  static final byte[] QUALIFIER = bytes("q");

  private NumberedRows() {}

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A small cache, so that tests open many databases cheaply. */
  static CellarConfig config() {
    return CellarConfig.defaults().with("hfile.block.cache.memory.size", "4m");
  }

  /** Writes rows {@code from} to {@code from + rows - 1}, recording them in {@code oracle}. */
  static void write(Cellar cellar, TreeMap<String, String> oracle, int from, int rows)
      throws IOException {
    if (!cellar.admin().tableExists("t")) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
    }
    for (int i = from; i < from + rows; i++) {
      String row = String.format("row-%05d", i);
      cellar.table("t").put(new Put(bytes(row)).addColumn(FAMILY, QUALIFIER, bytes("v" + i)));
      oracle.put(row, "v" + i);
    }
  }

  /** Every row of {@code t} with its {@code f:q} value. */
  static TreeMap<String, String> read(Cellar cellar) throws IOException {
    TreeMap<String, String> found = new TreeMap<>();
    try (ResultScanner scanner = cellar.table("t").scanner(new Scan())) {
      for (Result result : scanner) {
        try (result) {
          found.put(
              new String(result.row(), StandardCharsets.UTF_8),
              new String(result.getValue(FAMILY, QUALIFIER), StandardCharsets.UTF_8));
        }
      }
    }
    return found;
  }
}
