package dev.cellar.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.modules.ModulePathFixture.Compilation;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dev.cellar.core on the module path: a consumer module uses the public API (an embedded database,
 * a filter, the cells of a result) and runs; a consumer importing an internal package, or one the
 * core exports only to Cellar's own modules, does not compile.
 */
class ModuleBoundaryTest {

  private static final String CONSUMER =
      """
      package consumer;

      import dev.cellar.Cellar;
      import dev.cellar.CellarConfig;
      import dev.cellar.ColumnFamilyDescriptor;
      import dev.cellar.schema.Compression;
      import dev.cellar.Get;
      import dev.cellar.Put;
      import dev.cellar.Result;
      import dev.cellar.Table;
      import dev.cellar.TableDescriptor;
      import dev.cellar.cell.Cell;
      import dev.cellar.filter.PrefixFilter;
      import java.nio.charset.StandardCharsets;
      import java.nio.file.Path;
      import java.util.Map;

      public class Main {
        public static void main(String[] args) throws Exception {
          byte[] f = "f".getBytes(StandardCharsets.UTF_8);
          byte[] q = "q".getBytes(StandardCharsets.UTF_8);
          try (Cellar cellar = Cellar.open(Path.of(args[0]), CellarConfig.defaults())) {
            ColumnFamilyDescriptor family =
                ColumnFamilyDescriptor.of("f", Map.of("COMPRESSION", "GZ"));
            cellar.admin().createTable(TableDescriptor.of("t", family));
            Table table = cellar.table("t");
            table.put(new Put("row".getBytes(StandardCharsets.UTF_8)).addColumn(f, q,
                "value".getBytes(StandardCharsets.UTF_8)));
            cellar.admin().flush("t");
            Get get = new Get("row".getBytes(StandardCharsets.UTF_8))
                .setFilter(new PrefixFilter("ro".getBytes(StandardCharsets.UTF_8)));
            try (Result result = table.get(get)) {
              Cell cell = result.rawCells().get(0);
              System.out.println("read " + new String(result.getValue(f, q), StandardCharsets.UTF_8)
                  + " in " + cell.valueLength() + " bytes, compression "
                  + (family.compression() == Compression.GZ ? "GZ" : family.compression()));
            }
          }
        }
      }
      """;

  @TempDir Path directory;

  @Test
  void aConsumerModuleUsesThePublicApi() throws Exception {
    ModulePathFixture modules = ModulePathFixture.of(directory, "dev.cellar.core");
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
        modules.run(consumer, "consumer", "consumer.Main", directory.resolve("db").toString());
    assertTrue(printed.contains("read value in 5 bytes, compression GZ"), printed);
  }

  @Test
  void anInternalPackageIsNotVisibleToAConsumer() throws Exception {
    Compilation consumer =
        ModulePathFixture.of(directory, "dev.cellar.core")
            .compile(
                "consumer",
                Map.of(
                    "module-info.java",
                    ModulePathFixture.moduleInfo("consumer", "dev.cellar.core"),
                    "consumer/Main.java",
                    """
                package consumer;

                import dev.cellar.store.Region;

                public class Main {
                  Region region;
                }
                """));
    assertFalse(consumer.compiled());
    assertTrue(
        consumer.messages().contains("package dev.cellar.store is not visible"),
        consumer.messages());
    assertTrue(
        consumer
            .messages()
            .contains(
                "(package dev.cellar.store is declared in module"
                    + " dev.cellar.core, which does not export it"),
        consumer.messages());
  }

  @Test
  void aPackageExportedToCellarsModulesIsNotVisibleToAConsumer() throws Exception {
    Compilation consumer =
        ModulePathFixture.of(directory, "dev.cellar.core")
            .compile(
                "consumer",
                Map.of(
                    "module-info.java",
                    ModulePathFixture.moduleInfo("consumer", "dev.cellar.core"),
                    "consumer/Main.java",
                    """
                package consumer;

                import dev.cellar.spi.EngineAccess;

                public class Main {
                  EngineAccess access;
                }
                """));
    assertFalse(consumer.compiled());
    assertTrue(
        consumer
            .messages()
            .contains(
                "package dev.cellar.spi is declared in module"
                    + " dev.cellar.core, which does not export it to module consumer"),
        consumer.messages());
  }

  @Test
  void theCoreExportsTheApiToAllAndItsInternalsOnlyToCellarsModules() {
    ModuleDescriptor core =
        ModuleFinder.of(
                ModulePathFixture.of(directory, "dev.cellar.core").modulePathEntries().getFirst())
            .find("dev.cellar.core")
            .orElseThrow()
            .descriptor();
    Map<String, Set<String>> exports =
        core.exports().stream()
            .collect(
                Collectors.toMap(Exports::source, Exports::targets, (a, b) -> a, TreeMap::new));
    Set<String> cellar = Set.of("dev.cellar.server", "dev.cellar.client", "dev.cellar.hdfs");
    exports.forEach(
        (pkg, targets) ->
            assertTrue(cellar.containsAll(targets), pkg + " is exported to " + targets));
    assertEquals(
        Set.of("dev.cellar", "dev.cellar.cell", "dev.cellar.filter", "dev.cellar.schema"),
        exports.entrySet().stream()
            .filter(export -> export.getValue().isEmpty())
            .map(Map.Entry::getKey)
            .collect(Collectors.toSet()));
  }
}
