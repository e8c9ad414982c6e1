package dev.cellar.cli.shell;

import dev.cellar.Database;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion: the command names for the first word, the database's table names (quoted, as the
 * shell's syntax wants them) for the next. Asks the database for its tables at each completion; a
 * failure to list them completes nothing.
 */
final class ShellCompleter implements Completer {

  private final Database database;

  ShellCompleter(Database database) {
    this.database = database;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
    if (line.wordIndex() == 0) {
      Shell.COMMANDS.forEach(command -> candidates.add(new Candidate(command)));
      return;
    }
    try {
      for (String table : database.admin().listTables()) {
        candidates.add(new Candidate("'" + table + "'", table, null, null, null, null, false));
      }
    } catch (RuntimeException e) {
      // no completion when the tables cannot be listed
    }
  }
}
