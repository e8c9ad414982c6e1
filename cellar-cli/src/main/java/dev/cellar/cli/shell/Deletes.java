package dev.cellar.cli.shell;

import dev.cellar.Admin;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Delete;
import dev.cellar.Get;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.filter.PrefixFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The delete markers of HBase shell's {@code delete} and {@code deleteall}, as HBase 2.6's shell
 * builds them.
 *
 * <p>{@code delete 't', 'r', 'f:q'[, ts]} deletes one version: the newest, or the one at {@code
 * ts}. Cellar's Delete has no "newest version" marker (HBase's region server looks the version up;
 * Cellar's API leaves that to the caller), so the shell reads the newest version's timestamp and
 * marks that one; with no version there is nothing to delete. {@code delete 't', 'r', 'f'[, ts]}
 * marks the versions of every column of the family at exactly {@code ts} (or now).
 *
 * <p>{@code deleteall 't', 'r'[, column[, ts]]} deletes every version: of the row, of {@code f:q}
 * or of family {@code f}, up to {@code ts} when given; column {@code ''} with {@code ts} is the
 * whole row up to {@code ts}. The row may be {@code {ROWPREFIXFILTER => 'p'[, CACHE => n]}}: every
 * row starting with {@code p}, deleted {@code n} (100) at a time. Stateless.
 */
final class Deletes {

  private Deletes() {}

  /** HBase shell's {@code delete}: one version of a column, or a family's versions at one time. */
  static void one(Table table, Arguments args) throws IOException {
    byte[] row = args.bytes(1, "row");
    byte[][] column = Shell.column(args.string(2, "column"));
    boolean timed = args.size() > 3;
    long ts = timed ? args.number(3, "timestamp") : KeyValue.LATEST_TIMESTAMP;
    Delete delete = new Delete(row);
    if (column[1] == null) {
      delete.addFamilyVersion(column[0], ts);
    } else if (timed) {
      delete.addColumn(column[0], column[1], ts);
    } else {
      Long newest = newest(table, row, column);
      if (newest == null) {
        return;
      }
      delete.addColumn(column[0], column[1], newest);
    }
    table.delete(delete);
  }

  private static Long newest(Table table, byte[] row, byte[][] column) throws IOException {
    try (Result result = table.get(new Get(row).addColumn(column[0], column[1]))) {
      List<Cell> cells = result.rawCells();
      return cells.isEmpty() ? null : cells.get(0).timestamp();
    }
  }

  /** HBase shell's {@code deleteall}: every version of a row, a column or a family. */
  static void all(Table table, Admin admin, Arguments args) throws IOException {
    String column = args.size() > 2 ? args.string(2, "column") : "";
    long ts = args.size() > 3 ? args.number(3, "timestamp") : KeyValue.LATEST_TIMESTAMP;
    List<String> families = List.of();
    if (column.isEmpty() && ts != KeyValue.LATEST_TIMESTAMP) {
      families =
          admin.describe(table.name()).families().stream()
              .map(ColumnFamilyDescriptor::name)
              .toList();
    }
    if (!(args.get(1) instanceof Map<?, ?> hash)) {
      table.delete(allOf(args.bytes(1, "row"), column, ts, families));
      return;
    }
    Object prefix = hash.get("ROWPREFIXFILTER");
    for (Object key : hash.keySet()) {
      if (!key.equals("ROWPREFIXFILTER") && !key.equals("CACHE")) {
        throw new ShellException(
            "deleteall: unknown option " + key + "; a row hash takes ROWPREFIXFILTER and CACHE");
      }
    }
    if (prefix == null) {
      throw new ShellException("deleteall: a row hash needs ROWPREFIXFILTER => 'prefix'");
    }
    int batch = hash.get("CACHE") instanceof Long cache ? Math.toIntExact(cache) : 100;
    byte[] start = ShellBytes.of(String.valueOf(prefix));
    List<Delete> pending = new ArrayList<>();
    Scan scan = new Scan().withStartRow(start).setFilter(new PrefixFilter(start));
    try (ResultScanner scanner = table.scanner(scan)) {
      for (Result result : scanner) {
        try (result) {
          pending.add(allOf(result.row(), column, ts, families));
        }
        if (pending.size() >= batch) {
          table.batch(pending);
          pending.clear();
        }
      }
    }
    if (!pending.isEmpty()) {
      table.batch(pending);
    }
  }

  private static Delete allOf(byte[] row, String column, long ts, List<String> families) {
    Delete delete = new Delete(row);
    if (column.isEmpty()) {
      families.forEach(family -> delete.addFamily(ShellBytes.of(family), ts));
      return delete;
    }
    byte[][] split = Shell.column(column);
    if (split[1] == null) {
      delete.addFamily(split[0], ts);
    } else {
      delete.addColumns(split[0], split[1], ts);
    }
    return delete;
  }
}
