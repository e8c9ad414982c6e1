package dev.cellar.store;

import dev.cellar.io.FileProblem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A table's directory holds what its manifest cannot account for ({@link FileSetAudit}): files that
 * may be acknowledged writes, which the open therefore neither deletes nor serves. Names the
 * table's directory, its manifest and every such file, and the command that repairs it.
 */
public final class DamagedTableException extends IOException {

  private final transient List<FileProblem> problems;

  public DamagedTableException(Path table, List<FileProblem> problems) {
    super(message(table, problems));
    this.problems = List.copyOf(problems);
  }

  /** What is wrong, one problem per file. */
  public List<FileProblem> problems() {
    return problems;
  }

  private static String message(Path table, List<FileProblem> problems) {
    StringBuilder text =
        new StringBuilder("table directory ")
            .append(table)
            .append(" does not match its manifest ")
            .append(table.resolve(Manifest.FILE_NAME))
            .append(" (")
            .append(problems.size())
            .append(problems.size() == 1 ? " file" : " files")
            .append(
                "); nothing was changed, and 'cellar repair' on the database rebuilds the"
                    + " manifest from the files present:");
    for (FileProblem problem : problems) {
      text.append("\n  ").append(problem);
    }
    return text.toString();
  }
}
