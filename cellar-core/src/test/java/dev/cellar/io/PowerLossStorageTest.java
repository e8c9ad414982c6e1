package dev.cellar.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a simulated power loss keeps (what was forced) and takes back (everything else). */
class PowerLossStorageTest {

  @TempDir Path root;
  private Path directory;
  private PowerLossStorage storage;

  @BeforeEach
  void setUp() throws IOException {
    directory = Files.createDirectories(root.resolve("data"));
    storage = new PowerLossStorage(root.resolve("stash"));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private void write(Path file, String forced, String notForced) throws IOException {
    try (AppendOnlyFile out = storage.create(file)) {
      out.append(bytes(forced), 0, forced.length());
      out.sync();
      out.append(bytes(notForced), 0, notForced.length());
    }
  }

  @Test
  void aFileIsCutToWhatWasForcedAndGoneWithoutItsDirectoryForced() throws IOException {
    Path kept = directory.resolve("kept");
    write(kept, "forced", " lost");
    storage.syncDirectory(directory);
    Path unlisted = directory.resolve("unlisted");
    write(unlisted, "forced", "");
    storage.powerLoss();
    assertArrayEquals(bytes("forced"), Files.readAllBytes(kept));
    assertFalse(Files.exists(unlisted));
  }

  @Test
  void renamesAndDeletesComeBackUntilTheDirectoryIsForced() throws IOException {
    Path old = directory.resolve("old");
    Path replaced = directory.resolve("replaced");
    write(old, "old", "");
    write(replaced, "replaced", "");
    storage.syncDirectory(directory);

    storage.rename(old, replaced);
    Path deleted = directory.resolve("deleted");
    write(deleted, "deleted", "");
    storage.syncDirectory(directory);
    storage.deleteIfExists(deleted);
    storage.rename(replaced, directory.resolve("renamed"));
    storage.powerLoss();

    assertFalse(Files.exists(old));
    assertArrayEquals(bytes("old"), Files.readAllBytes(replaced));
    assertArrayEquals(bytes("deleted"), Files.readAllBytes(deleted));
    assertFalse(Files.exists(directory.resolve("renamed")));
  }

  @Test
  void aDirectoryWhoseParentWasNotForcedDisappearsWithItsFiles() throws IOException {
    Path family = directory.resolve("family");
    storage.createDirectories(family);
    write(family.resolve("file"), "forced", "");
    storage.syncDirectory(family);
    storage.powerLoss();
    assertFalse(Files.exists(family));

    storage.createDirectories(family);
    storage.syncDirectory(directory);
    write(family.resolve("file"), "forced", "");
    storage.syncDirectory(family);
    storage.powerLoss();
    assertTrue(Files.exists(family.resolve("file")));
  }

  @Test
  void cuttingThePowerFailsThatOperationAndEveryLaterOne() throws IOException {
    write(directory.resolve("before"), "a", "");
    int next = storage.operations();
    storage.cutAt(next + 1);
    storage.syncDirectory(directory);
    assertThrows(IOException.class, () -> storage.create(directory.resolve("after")));
    assertThrows(IOException.class, () -> storage.syncDirectory(directory));
    assertTrue(storage.off());
    storage.powerLoss();
    assertFalse(storage.off());
    assertEquals(1, storage.list(directory).size());
  }
}
