package dev.cellar.server.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.io.LostAndFound;
import dev.cellar.io.Storage;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableSchema;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server catalog's files in the damage matrix: a table file or a namespace file cut at a random
 * point, with a byte flipped, deleted, replaced by garbage or emptied. The catalog always opens,
 * every table is served with every cell; a damaged file is set aside in the server directory's
 * {@code lost/} (never deleted) and the table's entry made again from the database. Seed printed;
 * replay with {@code -Dcellar.test.seed=N}.
 */
@ExtendWith(TestSeedExtension.class)
class CatalogDamageTest {

  enum Damage {
    CUT,
    FLIP,
    DELETE,
    GARBAGE,
    EMPTY
  }

  @TempDir Path dir;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void everyCatalogFileDamagedEveryWay(TestSeed seed) throws Exception {
    Random random = new Random(seed.value());
    int run = 0;
    for (String kind : List.of("tables/ns=t.table", "namespaces/ns.namespace")) {
      for (Damage damage : Damage.values()) {
        runCase(kind, damage, random, "case " + run++ + ": " + damage + " of " + kind);
      }
    }
  }

  private void runCase(String kind, Damage damage, Random random, String context) throws Exception {
    Path base = dir.resolve(context.replaceAll("[^a-zA-Z0-9]", "_"));
    Path database = base.resolve("db");
    Path server = base.resolve("server");
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults())) {
      Catalog catalog = Catalog.open(cellar, Storage.local(), server);
      catalog.createNamespace(Namespaces.named("ns"));
      catalog.create(
          TableSchema.newBuilder()
              .setTableName(SchemaMapping.protoName("ns:t"))
              .addColumnFamilies(
                  HBaseProtos.ColumnFamilySchema.newBuilder().setName(ByteString.copyFromUtf8("f")))
              .build(),
          new byte[0][]);
      cellar.table("ns:t").put(new Put(bytes("r")).addColumn(bytes("f"), bytes("q"), bytes("v")));
    }
    Path file = server.resolve(kind);
    damage(file, damage, random);

    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults())) {
      Catalog catalog = Catalog.open(cellar, Storage.local(), server);
      assertNotNull(catalog.byName("ns:t"), context + ": the table is served");
      assertNotNull(catalog.namespace("ns"), context + ": its namespace exists");
      try (Result result = cellar.table("ns:t").get(new Get(bytes("r")))) {
        assertEquals(
            "v",
            new String(result.getValue(bytes("f"), bytes("q")), StandardCharsets.UTF_8),
            context);
      }
    }
    if (damage != Damage.DELETE && damage != Damage.FLIP && damage != Damage.CUT) {
      assertTrue(
          setAside(server).stream().anyMatch(path -> path.endsWith(kind)),
          context + ": the damaged file is kept in lost/: " + setAside(server));
    }
    try (Cellar cellar = Cellar.open(database, CellarConfig.defaults())) {
      Catalog catalog = Catalog.open(cellar, Storage.local(), server);
      assertNotNull(catalog.byName("ns:t"), context + ": and after another open");
    }
  }

  private static List<Path> setAside(Path server) throws IOException {
    Path lost = server.resolve(LostAndFound.DIRECTORY);
    if (!Files.isDirectory(lost)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(lost)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  private static void damage(Path file, Damage damage, Random random) throws IOException {
    byte[] content = Files.readAllBytes(file);
    switch (damage) {
      case DELETE -> Files.delete(file);
      case EMPTY -> Files.write(file, new byte[0]);
      case CUT -> Files.write(file, Arrays.copyOf(content, random.nextInt(content.length)));
      case FLIP -> {
        content[random.nextInt(content.length)] ^= (byte) (1 + random.nextInt(255));
        Files.write(file, content);
      }
      case GARBAGE -> {
        random.nextBytes(content);
        Files.write(file, content);
      }
    }
  }
}
