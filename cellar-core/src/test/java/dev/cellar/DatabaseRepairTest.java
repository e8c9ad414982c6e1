package dev.cellar;

import static dev.cellar.NumberedRows.FAMILY;
import static dev.cellar.NumberedRows.QUALIFIER;
import static dev.cellar.NumberedRows.bytes;
import static dev.cellar.NumberedRows.config;
import static dev.cellar.NumberedRows.read;
import static dev.cellar.NumberedRows.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.io.DirectoryLockedException;
import dev.cellar.io.FaultyStorage;
import dev.cellar.io.LostAndFound;
import dev.cellar.io.Storage;
import dev.cellar.store.DirectoryHash;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cellar repair} brings a damaged database back: after it the open works, {@code check}
 * finds nothing, every cell of every readable file is back (a deleted cell stays deleted where its
 * marker survived), and what was set aside is in {@code lost/} with a note, never deleted. A dry
 * run, a held database, a path that is no database and a directory that cannot be written change
 * nothing.
 */
class DatabaseRepairTest {

  @TempDir Path directory;

  private DatabaseRepair.Report repair() throws IOException {
    return Cellar.repair(directory.toString(), config(), false);
  }

  private void assertOpensWith(TreeMap<String, String> oracle) throws IOException {
    try (Cellar cellar = Cellar.open(directory, config())) {
      assertEquals(oracle, read(cellar));
    }
    assertEquals(List.of(), DatabaseCheck.check(directory).problems(), "check finds nothing");
  }

  private Path manifest() {
    return directory.resolve("tables/t/MANIFEST");
  }

  private List<Path> hfiles() throws IOException {
    try (Stream<Path> files = Files.list(directory.resolve("tables/t/f"))) {
      return files.filter(Files::isRegularFile).sorted().toList();
    }
  }

  private List<Path> lostFiles() throws IOException {
    try (Stream<Path> files = Files.walk(directory.resolve(LostAndFound.DIRECTORY))) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  /** Three flushes, then the manifest cut to 150 bytes: records that added files are gone. */
  @Test
  void aCutManifestIsRefusedThenRebuiltWithEveryFile() throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    try (Cellar cellar = Cellar.open(directory, config())) {
      for (int flush = 0; flush < 4; flush++) {
        write(cellar, oracle, flush * 50, 50);
        cellar.admin().flush("t");
      }
    }
    try (FileChannel channel = FileChannel.open(manifest(), StandardOpenOption.WRITE)) {
      channel.truncate(150);
    }
    Map<String, String> before = DirectoryHash.of(directory);
    IOException refused = assertThrows(IOException.class, () -> Cellar.open(directory, config()));
    assertTrue(refused.getMessage().contains("cellar repair"), refused.getMessage());
    assertEquals(before, DirectoryHash.of(directory), "the refusal changed nothing");
    assertFalse(DatabaseCheck.check(directory).problems().isEmpty(), "check agrees");

    DatabaseRepair.Report dryRun = Cellar.repair(directory.toString(), config(), true);
    assertTrue(
        dryRun.steps().stream().anyMatch(step -> step.startsWith("rebuild ")),
        dryRun.steps().toString());
    assertEquals(before, DirectoryHash.of(directory), "a dry run changes nothing");

    DatabaseRepair.Report report = repair();
    assertEquals(dryRun.steps().size(), report.steps().size(), report.steps().toString());
    assertOpensWith(oracle);
    assertTrue(
        lostFiles().stream().anyMatch(path -> path.endsWith("tables/t/MANIFEST")),
        "the old manifest is kept: " + lostFiles());
    Path reportFile =
        lostFiles().stream()
            .filter(path -> path.endsWith(LostAndFound.REPORT))
            .findFirst()
            .orElseThrow();
    assertEquals(report.steps(), Files.readAllLines(reportFile), "the report lists every step");
    assertEquals(List.of(), repair().steps(), "a second repair finds nothing to do");
  }

  @Test
  void aCorruptHFileIsSetAsideAndTheRestComesBack() throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    TreeMap<String, String> kept = new TreeMap<>();
    try (Cellar cellar = Cellar.open(directory, config())) {
      write(cellar, kept, 0, 50);
      cellar.admin().flush("t");
      write(cellar, oracle, 50, 50);
      cellar.admin().flush("t");
    }
    Path damaged = null;
    for (Path file : hfiles()) {
      if (damaged == null) {
        byte[] bytes = Files.readAllBytes(file);
        bytes[100] ^= 0x5A;
        Files.write(file, bytes);
        damaged = file;
      }
    }
    DatabaseRepair.Report report = repair();
    Path set = damaged;
    assertTrue(
        report.steps().stream()
            .anyMatch(step -> step.contains(set.toString()) && step.contains("not a sound HFile")),
        report.steps().toString());
    assertTrue(report.lost().isPresent());
    try (Cellar cellar = Cellar.open(directory, config())) {
      TreeMap<String, String> found = read(cellar);
      assertTrue(
          found.equals(kept) || found.equals(oracle),
          "every cell of the readable file, nothing else: " + found.size());
    }
    assertEquals(List.of(), DatabaseCheck.check(directory).problems());
    assertTrue(
        Files.readString(
                lostFiles().stream()
                    .filter(path -> path.endsWith(LostAndFound.NOTES))
                    .findFirst()
                    .orElseThrow())
            .contains(damaged.getFileName().toString()));
  }

  @Test
  void aCompactionInputLeftBehindDoesNotBringADeletedCellBack() throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    Path putFile;
    byte[] putBytes;
    try (Cellar cellar = Cellar.open(directory, config())) {
      write(cellar, oracle, 0, 10);
      cellar.admin().flush("t");
      putFile = hfiles().getFirst();
      putBytes = Files.readAllBytes(putFile);
      cellar.table("t").delete(new Delete(bytes("row-00003")));
      oracle.remove("row-00003");
      cellar.admin().flush("t");
      cellar.admin().majorCompact("t");
    }
    Files.write(putFile, putBytes);
    Files.delete(manifest());
    assertThrows(IOException.class, () -> Cellar.open(directory, config()));

    repair();
    assertOpensWith(oracle);
    try (Cellar cellar = Cellar.open(directory, config())) {
      try (Result result = cellar.table("t").get(new Get(bytes("row-00003")))) {
        assertNull(result.getValue(FAMILY, QUALIFIER), "deleted, and stays so");
      }
    }
  }

  @Test
  void aLostDescriptorIsRebuiltFromTheDirectory() throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    try (Cellar cellar = Cellar.open(directory, config())) {
      write(cellar, oracle, 0, 20);
      cellar.admin().flush("t");
    }
    Files.delete(directory.resolve("tables/t/.tabledesc"));
    assertThrows(IOException.class, () -> Cellar.open(directory, config()));

    DatabaseRepair.Report report = repair();
    assertTrue(
        report.steps().stream().anyMatch(step -> step.contains("default family")),
        report.steps().toString());
    assertOpensWith(oracle);
  }

  @Test
  void aFlippedDescriptorIsRefusedThenRewrittenAsItReads() throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    try (Cellar cellar = Cellar.open(directory, config())) {
      cellar
          .admin()
          .createTable(
              TableDescriptor.of("t", ColumnFamilyDescriptor.of("f", Map.of("VERSIONS", "3"))));
      write(cellar, oracle, 0, 20);
      cellar.admin().flush("t");
    }
    Path file = directory.resolve("tables/t/.tabledesc");
    String text = Files.readString(file, StandardCharsets.ISO_8859_1);
    Files.writeString(file, text.replace("VERSIONS=3", "VERSIONS=7"), StandardCharsets.ISO_8859_1);
    IOException refused = assertThrows(IOException.class, () -> Cellar.open(directory, config()));
    assertTrue(refused.getMessage().contains("checksum mismatch"), refused.getMessage());

    repair();
    assertOpensWith(oracle);
    try (Cellar cellar = Cellar.open(directory, config())) {
      assertEquals(
          7,
          cellar.admin().describe("t").family("f").maxVersions(),
          "taken as it reads, for the operator to check");
    }
  }

  @Test
  void aHeldDatabaseANonDatabaseAndAnUnwritableDirectoryAreRefusedChangingNothing()
      throws IOException {
    TreeMap<String, String> oracle = new TreeMap<>();
    try (Cellar cellar = Cellar.open(directory, config())) {
      write(cellar, oracle, 0, 10);
      Map<String, String> before = DirectoryHash.of(directory);
      assertThrows(DirectoryLockedException.class, this::repair);
      assertThrows(
          DirectoryLockedException.class,
          () -> Cellar.repair(directory.toString(), config(), true));
      assertEquals(before, DirectoryHash.of(directory));
    }
    IOException notADatabase =
        assertThrows(
            IOException.class,
            () -> Cellar.repair(directory.resolve("tables").toString(), config(), false));
    assertTrue(
        notADatabase.getMessage().contains("is not a Cellar database"), notADatabase.getMessage());

    Map<String, String> before = DirectoryHash.of(directory);
    FaultyStorage readOnly = new FaultyStorage(Storage.local());
    readOnly.failNext(operation -> operation.kind() == FaultyStorage.Kind.CREATE);
    IOException unwritable =
        assertThrows(
            IOException.class,
            () ->
                DatabaseRepair.repair(
                    readOnly, directory, WalPlacement.inside(readOnly, directory), false));
    assertTrue(
        unwritable.getMessage().contains("cannot be written")
            && unwritable.getMessage().contains("nothing was changed"),
        unwritable.getMessage());
    assertEquals(before, DirectoryHash.of(directory));
    assertOpensWith(oracle);
  }
}
