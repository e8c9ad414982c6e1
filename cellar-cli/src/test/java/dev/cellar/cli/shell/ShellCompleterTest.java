package dev.cellar.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.TableDescriptor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.Parser;
import org.jline.reader.impl.DefaultParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tab completion: commands first, then the database's tables, quoted. */
class ShellCompleterTest {

  @TempDir Path dir;

  private static List<String> complete(ShellCompleter completer, String line) {
    List<Candidate> candidates = new ArrayList<>();
    completer.complete(
        null,
        new DefaultParser().parse(line, line.length(), Parser.ParseContext.COMPLETE),
        candidates);
    return candidates.stream().map(Candidate::value).toList();
  }

  @Test
  void completesCommandsThenTables() throws IOException {
    try (Cellar cellar = Cellar.open(dir, CellarConfig.defaults())) {
      cellar.admin().createTable(TableDescriptor.of("users", ColumnFamilyDescriptor.of("f")));
      cellar.admin().createTable(TableDescriptor.of("orders", ColumnFamilyDescriptor.of("f")));
      ShellCompleter completer = new ShellCompleter(cellar);
      List<String> commands = complete(completer, "sc");
      assertTrue(
          commands.containsAll(List.of("scan", "major_compact", "deleteall")), commands.toString());
      assertEquals(Shell.COMMANDS.size(), commands.size());
      assertEquals(List.of("'orders'", "'users'"), complete(completer, "scan "));
    }
  }
}
