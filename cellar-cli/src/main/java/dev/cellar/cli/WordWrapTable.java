package dev.cellar.cli;

import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;

/**
 * A picocli text table whose wrapping columns break lines at spaces only. Picocli's own table
 * breaks wherever {@link java.text.BreakIterator} allows, which includes after a {@code .}, {@code
 * :} or {@code /}, so that {@code hbase.wal.dir} or {@code hdfs://host:8020/path} could be cut in
 * two at the end of a line. This table cuts each value at the last space that fits and hands
 * picocli one line at a time, each of which fits, so that picocli never breaks one itself. Only a
 * single word wider than the whole column is still cut, where picocli cuts it.
 */
final class WordWrapTable extends TextTable {

  private final ColorScheme colorScheme;

  private WordWrapTable(ColorScheme colorScheme, Column[] columns) {
    super(colorScheme, columns);
    this.colorScheme = colorScheme;
  }

  /** A table with the columns and wrapped-line indent of {@code picocli}'s, and no rows. */
  static WordWrapTable like(TextTable picocli, ColorScheme colorScheme) {
    WordWrapTable table = new WordWrapTable(colorScheme, picocli.columns());
    table.indentWrappedLines = picocli.indentWrappedLines;
    table.setAdjustLineBreaksForWideCJKCharacters(picocli.isAdjustLineBreaksForWideCJKCharacters());
    return table;
  }

  @Override
  public Cell putValue(int row, int col, Text value) {
    Column column = columns()[col];
    if (column.overflow != Column.Overflow.WRAP || value == null || value.plainString().isEmpty()) {
      return super.putValue(row, col, value);
    }
    String plain = value.plainString();
    Text indent = colorScheme.text(" ".repeat(indentWrappedLines));
    int end = lineEnd(plain, 0, column.width - column.indent);
    Cell cell = super.putValue(row, col, value.substring(0, end));
    for (int start = nextWord(plain, end); start < plain.length(); start = nextWord(plain, end)) {
      end = lineEnd(plain, start, column.width - column.indent - indentWrappedLines);
      addEmptyRow();
      cell = super.putValue(cell.row + 1, col, indent.concat(value.substring(start, end)));
    }
    return cell;
  }

  /**
   * Where the line that starts at {@code start} ends: the whole rest when it fits in {@code width},
   * else at the last space that fits (as picocli, counting the space), else (a word wider than the
   * column) at the first space.
   */
  private static int lineEnd(String text, int start, int width) {
    if (text.length() - start <= width) {
      return text.length();
    }
    int space = text.lastIndexOf(' ', start + width - 1);
    while (space > start && text.charAt(space - 1) == ' ') {
      space--;
    }
    if (space > start) {
      return space;
    }
    int after = text.indexOf(' ', nextWord(text, start));
    return after < 0 ? text.length() : after;
  }

  /** The first character at or after {@code index} that is not a space. */
  private static int nextWord(String text, int index) {
    while (index < text.length() && text.charAt(index) == ' ') {
      index++;
    }
    return index;
  }
}
