package dev.cellar.cli.ycsb;

import dev.cellar.CellarConfig;
import dev.cellar.Database;
import dev.cellar.Delete;
import dev.cellar.Get;
import dev.cellar.Put;
import dev.cellar.Result;
import dev.cellar.ResultScanner;
import dev.cellar.Scan;
import dev.cellar.Table;
import dev.cellar.cell.Cell;
import dev.cellar.client.CellarClient;
import dev.cellar.client.ClientSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB's {@link DB} over Cellar's client: a record is a row whose fields are the columns of one
 * family ({@code -p columnfamily=}, default {@code family}); read is a Get (of the family, or of
 * the fields asked for), scan a Scan from the start key limited to the record count, insert and
 * update a Put, delete a row Delete. Properties: {@code cellar.connect=HOST:PORT} (required) and
 * HBase's client keys ({@code hbase.rpc.timeout}, ...).
 *
 * <p><b>Threads.</b> YCSB makes one instance per client thread; they share one {@link CellarClient}
 * per address (its calls are pipelined on one connection), opened by the first {@link #init()} and
 * closed by the last {@link #cleanup()}. An instance made over a database this process already
 * holds ({@link #CellarYcsbDb(Database)}: an embedded one, or a client an experiment opened) uses
 * that one and leaves it open.
 */
public final class CellarYcsbDb extends DB {

  public static final String CONNECT = "cellar.connect";
  public static final String FAMILY = "columnfamily";
  public static final String DEFAULT_FAMILY = "family";

  private static final Object LOCK = new Object();
  private static CellarClient shared;
  private static int users;

  private byte[] family;
  private Database database;
  private boolean sharesClient;
  private Table table;
  private String tableName;

  /** The binding YCSB's client makes: {@link #init()} connects to {@code cellar.connect}. */
  public CellarYcsbDb() {}

  /** A binding over {@code database}, which {@link #cleanup()} leaves open. */
  public CellarYcsbDb(Database database) {
    this.database = database;
  }

  @Override
  public void init() throws DBException {
    family = getProperties().getProperty(FAMILY, DEFAULT_FAMILY).getBytes(StandardCharsets.UTF_8);
    if (database != null) {
      return;
    }
    String address = getProperties().getProperty(CONNECT);
    if (address == null) {
      throw new DBException("set -p " + CONNECT + "=HOST:PORT, the cellar serve to use");
    }
    synchronized (LOCK) {
      if (shared == null) {
        Map<String, String> settings = new HashMap<>();
        getProperties()
            .stringPropertyNames()
            .forEach(key -> settings.put(key, getProperties().getProperty(key)));
        try {
          shared =
              CellarClient.connect(
                  address, ClientSettings.from(CellarConfig.defaults().withAll(settings)));
        } catch (IllegalArgumentException e) {
          throw new DBException(e.getMessage());
        }
      }
      users++;
      database = shared;
      sharesClient = true;
    }
  }

  private Table table(String name) {
    if (!name.equals(tableName)) {
      table = database.table(name);
      tableName = name;
    }
    return table;
  }

  @Override
  public void cleanup() {
    if (!sharesClient) {
      return;
    }
    synchronized (LOCK) {
      if (--users == 0) {
        shared.close();
        shared = null;
      }
    }
  }

  @Override
  public Status read(
      String tableName, String key, Set<String> fields, Map<String, ByteIterator> result) {
    Get get = new Get(bytes(key));
    if (fields == null) {
      get.addFamily(family);
    } else {
      fields.forEach(field -> get.addColumn(family, bytes(field)));
    }
    try (Result row = table(tableName).get(get)) {
      if (row.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copy(row, result);
      return Status.OK;
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      return failed("read", e);
    }
  }

  @Override
  public Status scan(
      String tableName,
      String startKey,
      int recordCount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan scan =
        new Scan().withStartRow(bytes(startKey)).setLimit(recordCount).setCaching(recordCount);
    if (fields == null) {
      scan.addFamily(family);
    } else {
      fields.forEach(field -> scan.addColumn(family, bytes(field)));
    }
    try (ResultScanner scanner = table(tableName).scanner(scan)) {
      for (Result row : scanner) {
        try (row) {
          HashMap<String, ByteIterator> record = new HashMap<>();
          copy(row, record);
          result.add(record);
        }
      }
      return Status.OK;
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      return failed("scan", e);
    }
  }

  @Override
  public Status update(String tableName, String key, Map<String, ByteIterator> values) {
    Put put = new Put(bytes(key));
    values.forEach((field, value) -> put.addColumn(family, bytes(field), value.toArray()));
    try {
      table(tableName).put(put);
      return Status.OK;
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      return failed("update", e);
    }
  }

  @Override
  public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
    return update(tableName, key, values);
  }

  @Override
  public Status delete(String tableName, String key) {
    try {
      table(tableName).delete(new Delete(bytes(key)));
      return Status.OK;
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      return failed("delete", e);
    }
  }

  private static void copy(Result row, Map<String, ByteIterator> into) {
    for (Cell cell : row.rawCells()) {
      into.put(
          new String(cell.qualifierArray(), StandardCharsets.UTF_8),
          new ByteArrayByteIterator(cell.valueArray()));
    }
  }

  private static Status failed(String operation, Exception e) {
    System.err.println("cellar ycsb: " + operation + " failed: " + e.getMessage());
    return Status.ERROR;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
