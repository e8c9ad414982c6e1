package dev.cellar.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cellar.Cellar;
import dev.cellar.CellarConfig;
import dev.cellar.ColumnFamilyDescriptor;
import dev.cellar.Database;
import dev.cellar.Delete;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.RandomDeletes;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.TableDescriptor;
import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import dev.cellar.server.CellarServer;
import dev.cellar.server.NettyLeakCheck;
import dev.cellar.server.ServerOptions;
import dev.cellar.store.ReadSemanticsOracle;
import dev.cellar.store.Region;
import dev.cellar.store.ScanSpec;
import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random puts, deletes of every kind, gets, multi-gets and scans (bounded, reversed, limited, with
 * small caching), flushes, compactions and restarts, checked against {@link ReadSemanticsOracle},
 * once on an embedded database and once through {@link CellarClient} against an in-process server
 * (where a restart restarts the server under the connected client, which must reconnect). The same
 * seed gives the same operations in both modes; the seed is printed and can be set with {@code
 * -Dcellar.test.seed}.
 */
@ExtendWith(NettyLeakCheck.class)
@ExtendWith(TestSeedExtension.class)
class RandomizedOracleTest {

  private static final int VERSIONS = 3;
  private static final byte[][] FAMILIES = {"a".getBytes(), "b".getBytes()};

  @TempDir Path directory;

  private static CellarConfig config() {
    return CellarConfig.defaults()
        .with("hbase.hregion.memstore.flush.size", "32768")
        .with("hbase.hstore.compaction.min", "2")
        .with("hfile.block.cache.memory.size", "4m");
  }

  /** The database under test, which can be restarted. */
  private interface Subject extends AutoCloseable {
    Database database();

    void restart() throws IOException;

    @Override
    void close() throws IOException;
  }

  private Subject embedded() throws IOException {
    return new Subject() {
      private Cellar cellar = Cellar.open(directory, config());

      @Override
      public Database database() {
        return cellar;
      }

      @Override
      public void restart() throws IOException {
        cellar.close();
        cellar = Cellar.open(directory, config());
      }

      @Override
      public void close() throws IOException {
        cellar.close();
      }
    };
  }

  private Subject remote() throws IOException {
    ServedDatabase served =
        ServedDatabase.start(
            directory,
            config(),
            ClientSettings.defaults().withRetries(10, 20).withRpcTimeoutMillis(20_000));
    int port = served.server.address().getPort();
    return new Subject() {
      private CellarServer server = served.server;

      @Override
      public Database database() {
        return served.client;
      }

      @Override
      public void restart() throws IOException {
        server.close();
        CellarConfig restarted =
            config()
                .with(ServerOptions.PORT, Integer.toString(port))
                .with(ServerOptions.HANDLERS, "4");
        server = CellarServer.start(ServerOptions.from(directory, restarted), restarted);
      }

      @Override
      public void close() throws IOException {
        try {
          served.client.close();
        } finally {
          server.close();
        }
      }
    };
  }

  private static byte[] row(int i) {
    return String.format("row-%03d", i).getBytes();
  }

  @ParameterizedTest
  @ValueSource(strings = {"embedded", "remote"})
  void randomOperationsMatchTheOracle(String mode, TestSeed seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed.value());
    List<Cell> written = new ArrayList<>();
    long sequence = 0;
    try (Subject subject = mode.equals("embedded") ? embedded() : remote()) {
      subject
          .database()
          .admin()
          .createTable(
              TableDescriptor.of(
                  "t",
                  ColumnFamilyDescriptor.of("a", Map.of("VERSIONS", "3", "BLOCKSIZE", "1024")),
                  ColumnFamilyDescriptor.of(
                      "b",
                      Map.of(
                          "VERSIONS",
                          "3",
                          "BLOCKSIZE",
                          "1024",
                          "DATA_BLOCK_ENCODING",
                          "FAST_DIFF"))));
      for (int step = 0; step < 1200; step++) {
        String context = mode + " step " + step;
        int op = random.nextInt(100);
        Table table = subject.database().table("t");
        if (op < 40) {
          Put put = new Put(row(random.nextInt(40)));
          for (int c = 0; c < 1 + random.nextInt(3); c++) {
            put.addColumn(
                FAMILIES[random.nextInt(2)],
                ("q" + random.nextInt(6)).getBytes(),
                1 + random.nextInt(20),
                ("v" + step + "-" + c + "x".repeat(random.nextInt(300))).getBytes());
          }
          table.put(put);
          for (KeyValue cell : put.cells()) {
            written.add(cell.withSequenceId(++sequence));
          }
        } else if (op < 50) {
          Delete delete = randomDelete(random);
          table.delete(delete);
          for (KeyValue cell : delete.cells()) {
            written.add(cell.withSequenceId(++sequence));
          }
        } else if (op < 68) {
          checkGet(table, written, random, context);
        } else if (op < 74) {
          checkMultiGet(table, written, random, context);
        } else if (op < 90) {
          checkScan(table, written, random, context);
        } else if (op < 94) {
          subject.database().admin().flush("t");
        } else if (op < 96) {
          subject.database().admin().compact("t");
        } else if (op < 98) {
          subject.database().admin().flush("t");
          subject.database().admin().majorCompact("t");
          written = majorCompacted(written);
        } else if (op < 99) {
          subject.restart();
        }
      }
      checkScan(subject.database().table("t"), written, random, mode + " at the end");
    }
  }

  private static Delete randomDelete(SplittableRandom random) {
    byte[] row = row(random.nextInt(40));
    byte[] family = FAMILIES[random.nextInt(2)];
    byte[] qualifier = ("q" + random.nextInt(6)).getBytes();
    long ts = 1 + random.nextInt(20);
    return RandomDeletes.of(random, row, family, qualifier, ts);
  }

  private static ScanSpec spec(int versions, long min, long max, List<byte[]> qualifiers) {
    return new ScanSpec(
        qualifiers,
        Math.min(versions, VERSIONS),
        min,
        max,
        Long.MAX_VALUE,
        0,
        System.currentTimeMillis(),
        null);
  }

  private static List<String> describe(Result result) {
    return result.rawCells().stream().map(ReadSemanticsOracle::describe).toList();
  }

  private static void checkGet(
      Table table, List<Cell> written, SplittableRandom random, String context) throws IOException {
    byte[] row = row(random.nextInt(40));
    int versions = 1 + random.nextInt(4);
    long min = random.nextInt(3) == 0 ? random.nextInt(10) : 0;
    long max = random.nextInt(3) == 0 ? min + 1 + random.nextInt(15) : Long.MAX_VALUE;
    Get get = new Get(row).readVersions(versions).setTimeRange(min, max);
    List<Cell> relevant = written;
    List<byte[]> qualifiers = null;
    if (random.nextBoolean()) {
      byte[] family = FAMILIES[random.nextInt(2)];
      qualifiers = List.of(("q" + random.nextInt(6)).getBytes());
      get.addColumn(family, qualifiers.get(0));
      relevant = written.stream().filter(c -> Bytes.compare(c.familyArray(), family) == 0).toList();
    }
    List<List<String>> expected =
        ReadSemanticsOracle.scan(
            relevant, spec(versions, min, max, qualifiers), row, Region.rowAfter(row));
    try (Result result = table.get(get)) {
      List<List<String>> actual = result.isEmpty() ? List.of() : List.of(describe(result));
      assertEquals(expected, actual, context + " get " + Bytes.toStringBinary(row));
    }
  }

  private static void checkMultiGet(
      Table table, List<Cell> written, SplittableRandom random, String context) throws IOException {
    List<Get> gets = new ArrayList<>();
    List<List<String>> expected = new ArrayList<>();
    for (int i = 0; i < 1 + random.nextInt(8); i++) {
      byte[] row = row(random.nextInt(45));
      gets.add(new Get(row));
      List<List<String>> found =
          ReadSemanticsOracle.scan(
              written, spec(1, 0, Long.MAX_VALUE, null), row, Region.rowAfter(row));
      expected.add(found.isEmpty() ? List.of() : found.get(0));
    }
    Result[] results = table.get(gets);
    List<List<String>> actual = new ArrayList<>();
    for (Result result : results) {
      try (result) {
        actual.add(describe(result));
      }
    }
    assertEquals(expected, actual, context + " multi-get");
  }

  private static void checkScan(
      Table table, List<Cell> written, SplittableRandom random, String context) throws IOException {
    int from = random.nextInt(40);
    byte[] low = random.nextBoolean() ? Bytes.EMPTY : row(from);
    byte[] high = random.nextBoolean() ? Bytes.EMPTY : row(from + random.nextInt(20));
    boolean reversed = random.nextInt(3) == 0;
    int versions = 1 + random.nextInt(4);
    int limit = random.nextInt(3) == 0 ? 1 + random.nextInt(10) : 0;
    Scan scan =
        new Scan().readVersions(versions).setReversed(reversed).setCaching(1 + random.nextInt(7));
    if (limit > 0) {
      scan.setLimit(limit);
    }
    List<List<String>> expected;
    if (reversed) {
      scan.withStartRow(high).withStopRow(low);
      expected =
          new ArrayList<>(
              ReadSemanticsOracle.scan(
                  written,
                  spec(versions, 0, Long.MAX_VALUE, null),
                  low.length == 0 ? Bytes.EMPTY : Region.rowAfter(low),
                  high.length == 0 ? Bytes.EMPTY : Region.rowAfter(high)));
      Collections.reverse(expected);
    } else {
      scan.withStartRow(low).withStopRow(high);
      expected =
          ReadSemanticsOracle.scan(written, spec(versions, 0, Long.MAX_VALUE, null), low, high);
    }
    if (limit > 0 && expected.size() > limit) {
      expected = expected.subList(0, limit);
    }
    List<List<String>> actual = new ArrayList<>();
    try (ResultScanner scanner = table.scanner(scan)) {
      for (Result result : scanner) {
        try (result) {
          actual.add(describe(result));
        }
      }
    }
    assertEquals(expected, actual, context + (reversed ? " reversed" : "") + " scan");
  }

  private static List<Cell> majorCompacted(List<Cell> written) {
    List<Cell> kept = new ArrayList<>();
    for (List<Cell> row :
        ReadSemanticsOracle.scanCells(
            written, spec(VERSIONS, 0, Long.MAX_VALUE, null), Bytes.EMPTY, Bytes.EMPTY)) {
      kept.addAll(row);
    }
    return kept;
  }
}
