package dev.cellar.cli.shell;

import dev.cellar.cell.Cell;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The shell's output in HBase shell's layout: a header ({@code ROW COLUMN+CELL}), one line per cell
 * indented by one space with the left column padded to a fixed width, {@code N row(s)} and {@code
 * Took S seconds}. Cells print as {@code column=f:q, timestamp=<ISO-8601 UTC>,
 * value=<binary-escaped>}, or without the value or with its length when a KeyOnlyFilter asks. Not
 * thread-safe: one shell, one stream.
 */
final class ShellOutput {

  /** How a cell's value is shown: as it is, left out, or as its length (KeyOnlyFilter's forms). */
  enum Values {
    SHOWN,
    DROPPED,
    LENGTHS
  }

  private static final int LEFT = 32;
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final PrintStream out;

  ShellOutput(PrintStream out) {
    this.out = out;
  }

  PrintStream stream() {
    return out;
  }

  void line(String text) {
    out.println(text);
  }

  void header(String left, String right) {
    row(left, right);
  }

  /** One line: {@code left} (indented) padded, then {@code right}. */
  void row(String left, String right) {
    StringBuilder line = new StringBuilder(" ").append(left);
    while (line.length() < LEFT) {
      line.append(' ');
    }
    out.println(line.append(' ').append(right));
  }

  static String column(Cell cell) {
    return ShellBytes.show(cell.familyArray()) + ":" + ShellBytes.show(cell.qualifierArray());
  }

  static String cell(Cell cell, Values values) {
    byte[] value =
        switch (values) {
          case SHOWN -> cell.valueArray();
          case DROPPED -> new byte[0];
          case LENGTHS -> ByteBuffer.allocate(4).putInt(cell.valueArray().length).array();
        };
    return "timestamp="
        + TIME.format(Instant.ofEpochMilli(cell.timestamp()))
        + ", value="
        + ShellBytes.show(value);
  }

  void rows(long count, long startNanos) {
    out.println(count + " row(s)");
    took(startNanos);
  }

  void took(long startNanos) {
    out.printf("Took %.4f seconds%n", (System.nanoTime() - startNanos) / 1e9);
  }
}
