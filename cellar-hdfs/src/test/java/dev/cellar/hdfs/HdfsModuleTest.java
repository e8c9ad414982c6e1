package dev.cellar.hdfs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.modules.ModulePathFixture;
import dev.cellar.modules.ModulePathFixture.Compilation;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dev.cellar.hdfs on the module path, beside Hadoop's shaded client as automatic modules: a
 * consumer that requires only dev.cellar.core opens a database on HDFS, the core finding the module
 * as its {@code StorageProvider} service for {@code hdfs://}.
 */
class HdfsModuleTest {

  private static final String CONSUMER =
      """
      package consumer;

      import dev.cellar.Cellar;
      import dev.cellar.CellarConfig;
      import dev.cellar.ColumnFamilyDescriptor;
      import dev.cellar.Get;
      import dev.cellar.Put;
      import dev.cellar.Result;
      import dev.cellar.TableDescriptor;
      import java.nio.charset.StandardCharsets;

      public class Main {
        public static void main(String[] args) throws Exception {
          byte[] f = "f".getBytes(StandardCharsets.UTF_8);
          byte[] q = "q".getBytes(StandardCharsets.UTF_8);
          byte[] row = "row".getBytes(StandardCharsets.UTF_8);
          CellarConfig config = CellarConfig.defaults().with("dfs.replication", "1");
          try (Cellar cellar = Cellar.open(args[0], config)) {
            cellar.admin().createTable(TableDescriptor.of("t", ColumnFamilyDescriptor.of("f")));
            byte[] value = "on hdfs".getBytes(StandardCharsets.UTF_8);
            cellar.table("t").put(new Put(row).addColumn(f, q, value));
            cellar.admin().flush("t");
            try (Result result = cellar.table("t").get(new Get(row))) {
              byte[] read = result.getValue(f, q);
              System.out.println("read " + new String(read, StandardCharsets.UTF_8));
            }
          }
        }
      }
      """;

  private static MiniHdfs hdfs;

  @TempDir Path directory;

  @BeforeAll
  static void startHdfs() throws Exception {
    hdfs = MiniHdfs.start(1);
  }

  @AfterAll
  static void stopHdfs() throws Exception {
    hdfs.close();
  }

  @Test
  void aConsumerModuleOpensADatabaseOnHdfs() throws Exception {
    ModulePathFixture modules =
        ModulePathFixture.of(
            directory, "dev.cellar.core", "dev.cellar.hdfs", "hadoop.client.runtime");
    Compilation consumer =
        modules.compile(
            "consumer",
            Map.of(
                "module-info.java",
                ModulePathFixture.moduleInfo("consumer", "dev.cellar.core"),
                "consumer/Main.java",
                CONSUMER));
    assertTrue(consumer.compiled(), consumer.messages());
    String printed =
        modules.run(consumer, "consumer", "consumer.Main", hdfs.newDirectory("module-path"));
    assertTrue(printed.contains("read on hdfs"), printed);
  }
}
