package dev.cellar.client;

import dev.cellar.CellarConfig;
import dev.cellar.Database;
import dev.cellar.server.NettyLeakCheck;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TableContractTest} through {@link CellarClient} against an in-process {@code cellar
 * serve}; the database is the client, and closing it closes the server too.
 */
@ExtendWith(NettyLeakCheck.class)
class RemoteTableContractTest extends TableContractTest {

  @TempDir Path directory;

  @Override
  Database open() throws IOException {
    ServedDatabase served = ServedDatabase.start(directory, CellarConfig.defaults());
    return new Database() {
      @Override
      public dev.cellar.Admin admin() {
        return served.client.admin();
      }

      @Override
      public dev.cellar.Table table(String name) {
        return served.client.table(name);
      }

      @Override
      public void close() throws IOException {
        served.close();
      }
    };
  }
}
