package dev.cellar.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Put;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar repair}: a dry run prints the plan and changes nothing, the repair prints each
 * change and {@code cellar check} then says OK; what it cannot do is one line on standard error
 * with exit code 1.
 */
class RepairCommandTest {

  @TempDir Path temporary;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private Path damagedDatabase() throws IOException {
    Path database = temporary.resolve("db");
    try (Cellar cellar =
        Cellar.open(
            database, CellarConfig.defaults().with("hfile.block.cache.memory.size", "4m"))) {
      cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
      Table table = cellar.table("t");
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 50; i++) {
          table.put(
              new Put(bytes("row" + round + "-" + i))
                  .addColumn(bytes("f"), bytes("q"), bytes("value " + i)));
        }
        cellar.admin().flush("t");
      }
    }
    try (FileChannel manifest =
        FileChannel.open(database.resolve("tables/t/MANIFEST"), StandardOpenOption.WRITE)) {
      manifest.truncate(60);
    }
    return database;
  }

  @Test
  void aDryRunPrintsThePlanThenTheRepairMakesCheckPass() throws IOException {
    Path database = damagedDatabase();
    assertEquals(1, CliRun.of("check", database.toString()).exit());

    CliRun dryRun = CliRun.of("repair", "--dry-run", database.toString());
    assertEquals(0, dryRun.exit(), dryRun.toString());
    assertTrue(dryRun.out().contains("WOULD: rebuild "), dryRun.toString());
    assertEquals(1, CliRun.of("check", database.toString()).exit(), "the dry run changed nothing");

    CliRun repair = CliRun.of("repair", database.toString());
    assertEquals(0, repair.exit(), repair.toString());
    assertTrue(
        repair.out().contains("DONE: rebuild ") && repair.out().contains("set aside in "),
        repair.toString());
    CliRun check = CliRun.of("check", database.toString());
    assertEquals(0, check.exit(), check.toString());
    assertTrue(check.out().contains("with 150 cell(s)"), check.toString());
    assertTrue(CliRun.of("repair", database.toString()).out().contains("nothing to repair"));
  }

  @Test
  void aPathThatIsNoDatabaseIsOneLineAndExitOne() throws IOException {
    Path empty = Files.createDirectories(temporary.resolve("empty"));
    CliRun run = CliRun.of("repair", empty.toString());
    assertEquals(1, run.exit(), run.toString());
    assertEquals(1, run.err().lines().count(), run.toString());
    assertTrue(run.err().contains("is not a Cellar database"), run.toString());
  }
}
