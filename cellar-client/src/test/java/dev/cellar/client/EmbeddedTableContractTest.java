package dev.cellar.client;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.Database;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link TableContractTest} on an embedded database. */
class EmbeddedTableContractTest extends TableContractTest {

  @TempDir Path directory;

  @Override
  Database open() throws IOException {
    return Cellar.open(directory, CellarConfig.defaults());
  }
}
