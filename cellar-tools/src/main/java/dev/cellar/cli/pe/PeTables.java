package dev.cellar.cli.pe;

import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Database;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** PE's table in a {@link Database}, embedded or remote: made when missing, checked when read. */
final class PeTables {

  private PeTables() {}

  static Table createIfMissing(Database database, PeOptions options) throws IOException {
    if (!database.admin().tableExists(options.table())) {
      List<ColumnFamilyDescriptor> families = new ArrayList<>();
      for (int f = 0; f < options.families(); f++) {
        families.add(ColumnFamilyDescriptor.of(PeData.familyName(f), options.familyAttributes()));
      }
      database
          .admin()
          .createTable(new TableDescriptor(options.table(), families), options.splitKeys());
    }
    return database.table(options.table());
  }

  /**
   * The table, which must exist in {@code where} and hold rows.
   *
   * @param hint how to write the rows, for the message when they are missing
   */
  static Table existing(Database database, PeOptions options, String where, String hint)
      throws IOException {
    if (!database.admin().tableExists(options.table())) {
      throw new PeException(
          "table " + options.table() + " does not exist in " + where + ": " + hint);
    }
    Table table = database.table(options.table());
    try (ResultScanner scanner = table.scanner(new Scan().setLimit(1));
        Result first = scanner.next()) {
      if (first == null) {
        throw new PeException("table " + options.table() + " in " + where + " is empty: " + hint);
      }
    }
    return table;
  }
}
