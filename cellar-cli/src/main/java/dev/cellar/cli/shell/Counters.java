package dev.cellar.cli.shell;

import dev.cellar.Database;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.Table;
import dev.cellar.filter.CompareOperator;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * HBase shell's counter commands, {@code incr} and {@code get_counter}: a column holding an 8-byte
 * big-endian long. A column holding anything else is an error naming the cell. Stateless.
 */
final class Counters {

  private Counters() {}

  /**
   * HBase's incr: the column holds an 8-byte big-endian counter, added to atomically (a compare and
   * set of the old value, tried again if another writer got in between).
   */
  static void incr(Database database, Arguments args, ShellOutput out, long start)
      throws IOException {
    Table table = database.table(args.string(0, "table"));
    byte[] row = args.bytes(1, "row");
    byte[][] column = Shell.column(args.string(2, "column"));
    if (column[1] == null) {
      throw new ShellException("incr: give the column as family:qualifier");
    }
    long by = args.size() > 3 ? args.number(3, "increment") : 1;
    for (int attempt = 0; attempt < 100; attempt++) {
      byte[] current = counter("incr", table, row, column);
      long next = (current == null ? 0 : ByteBuffer.wrap(current).getLong()) + by;
      Put put =
          new Put(row)
              .addColumn(column[0], column[1], ByteBuffer.allocate(8).putLong(next).array());
      if (table.checkAndMutate(column[0], column[1], CompareOperator.EQUAL, current, put)) {
        out.line("COUNTER VALUE = " + next);
        out.took(start);
        return;
      }
    }
    throw new ShellException("incr: the counter kept changing under 100 attempts");
  }

  /**
   * The column's newest value as a counter's 8 bytes, or null when the column is empty.
   *
   * @throws ShellException naming the cell when it holds anything but 8 bytes
   */
  private static byte[] counter(String command, Table table, byte[] row, byte[][] column)
      throws IOException {
    byte[] value;
    try (Result result = table.get(new Get(row).addColumn(column[0], column[1]))) {
      value = result.getValue(column[0], column[1]);
    }
    if (value != null && value.length != 8) {
      throw new ShellException(
          command
              + ": "
              + ShellBytes.show(row)
              + " "
              + ShellBytes.show(column[0])
              + ":"
              + ShellBytes.show(column[1])
              + " holds "
              + value.length
              + " bytes, not an 8-byte counter");
    }
    return value;
  }

  /** HBase's get_counter: the newest value of the column as an 8-byte big-endian long. */
  static void get(Database database, Arguments args, ShellOutput out, long start)
      throws IOException {
    Table table = database.table(args.string(0, "table"));
    byte[] row = args.bytes(1, "row");
    byte[][] column = Shell.column(args.string(2, "column"));
    if (column[1] == null) {
      throw new ShellException("get_counter: give the column as family:qualifier");
    }
    byte[] value = counter("get_counter", table, row, column);
    if (value == null) {
      out.line("No counter found at specified coordinates");
    } else {
      out.line("COUNTER VALUE = " + ByteBuffer.wrap(value).getLong());
    }
    out.took(start);
  }

  /** create_namespace's optional hash of properties. */
}
