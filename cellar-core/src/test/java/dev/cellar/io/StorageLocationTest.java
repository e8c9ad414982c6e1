package dev.cellar.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.config.Settings;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolving what a user typed as a database's place: paths, file URIs, other schemes. */
class StorageLocationTest {

  @TempDir Path directory;

  @Test
  void plainPathsAndFileUrisAreLocal() throws IOException {
    try (StorageLocation path = StorageLocation.resolve(directory.toString(), Settings.empty());
        StorageLocation uri =
            StorageLocation.resolve(directory.toUri().toString(), Settings.empty());
        StorageLocation relative = StorageLocation.resolve("db", Settings.empty())) {
      assertSame(Storage.local(), path.storage());
      assertEquals(directory, path.directory());
      assertTrue(uri.isLocal());
      assertEquals(directory, uri.directory());
      assertEquals(Path.of("db"), relative.directory());
    }
  }

  @Test
  void schemesNeedTwoLettersSoADriveLetterIsAPath() {
    assertNull(StorageLocation.schemeOf("C:\\db"));
    assertNull(StorageLocation.schemeOf("/data/db:1"));
    assertEquals("hdfs", StorageLocation.schemeOf("HDFS://nn:8020/db"));
  }

  @Test
  void aUriWithoutItsStorageOnTheClassPathNamesTheModuleToAdd() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> Cellar.open("hdfs://127.0.0.1:8020/cellar/db", CellarConfig.defaults()));
    assertEquals(
        "hdfs://127.0.0.1:8020/cellar/db: no storage for scheme 'hdfs' on the class"
            + " path; add "
            + StorageLocation.HDFS_MODULE,
        e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void aUriNeedsAnAbsolutePath() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> StorageLocation.resolve("hdfs://127.0.0.1:8020", Settings.empty()));
    assertTrue(e.getMessage().contains("needs an absolute path"), e.getMessage());
  }
}
